-- takl: Gabriel's TAKL, tak on lists of length 18 12 6; repeated, sums the
-- lengths of the results (7 each).  Lists are cons cells {car, cdr}, nil = ().
local function listn(n)
  if n == 0 then return nil end
  return {n, listn(n - 1)}
end

local function shorterp(x, y)
  return y ~= nil and (x == nil or shorterp(x[2], y[2]))
end

local function mas(x, y, z)
  if not shorterp(y, x) then
    return z
  end
  return mas(mas(x[2], y, z), mas(y[2], z, x), mas(z[2], x, y))
end

local function length(l)
  local n = 0
  while l ~= nil do n = n + 1; l = l[2] end
  return n
end

local l18, l12, l6 = listn(18), listn(12), listn(6)
local s = 0
for i = 1, 450 do
  s = s + length(mas(l18, l12, l6))
end
print(s)

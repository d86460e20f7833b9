-- flatqueens: the functional N-queens with flat-map
-- (nextBadCols / nextGoodCols / innerQ), n = 8 (92 solutions), repeated;
-- prints the sum of the solution counts.  Lists are cons cells {car, cdr}.
local function append(a, b)          -- copies a, shares b
  if a == nil then return b end
  local head = {a[1], nil}
  local tail = head
  a = a[2]
  while a ~= nil do
    local c = {a[1], nil}
    tail[2] = c
    tail = c
    a = a[2]
  end
  tail[2] = b
  return head
end

local function length(l)
  local n = 0
  while l ~= nil do n = n + 1; l = l[2] end
  return n
end

local function member(x, l)
  while l ~= nil do
    if l[1] == x then return true end
    l = l[2]
  end
  return false
end

local function flat_map(f, xs)
  if xs == nil then return nil end
  local r = f(xs[1])
  return append(r, flat_map(f, xs[2]))
end

local function filter(p, xs)
  if xs == nil then return nil end
  if p(xs[1]) then return {xs[1], filter(p, xs[2])} end
  return filter(p, xs[2])
end

local function range(n)
  local l = nil
  for i = n - 1, 0, -1 do l = {i, l} end
  return l
end

-- element i of pres (length L) is at distance L - i from the next row
local function next_bad_cols(pres)
  local d = length(pres)
  return flat_map(function(e)
                    local r = {e, {e - d, {e + d, nil}}}
                    d = d - 1
                    return r
                  end, pres)
end

local function next_good_cols(n, pres)
  return filter(function(e) return not member(e, next_bad_cols(pres)) end,
                range(n))
end

local inner_q
inner_q = function(n, k, pres)
  if k == 0 then return {pres, nil} end
  return flat_map(function(e) return inner_q(n, k - 1, append(pres, {e, nil})) end,
                  next_good_cols(n, pres))
end

local function n_queens(n) return inner_q(n, n, nil) end

local s = 0
for i = 1, 120 do
  s = s + length(n_queens(8))
end
print(s)

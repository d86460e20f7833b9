-- queens: list-based incremental backtracking (M. Hiroi's nqueen1):
-- ps = queens placed so far (most recent first) as cons cells {car, cdr},
-- the "used" set is a member test on ps, conflict checks the diagonals.
-- n = 11 (2680 solutions), repeated; prints the sum of the counts.
local function conflict(y, ps)
  local d, p = 1, ps
  while p ~= nil do
    local y1 = p[1]
    if y1 + d == y or y1 - d == y then return true end
    d = d + 1
    p = p[2]
  end
  return false
end

local function member(x, l)
  while l ~= nil do
    if l[1] == x then return true end
    l = l[2]
  end
  return false
end

local function nqueen1(xs, ps, k)
  if k == 0 then return 1 end
  local c = 0
  local l = xs
  while l ~= nil do
    local x = l[1]
    if not member(x, ps) and not conflict(x, ps) then
      c = c + nqueen1(xs, {x, ps}, k - 1)
    end
    l = l[2]
  end
  return c
end

local function range(n)
  local l = nil
  for i = n - 1, 0, -1 do l = {i, l} end
  return l
end

local xs = range(11)
local s = 0
for i = 1, 12 do
  s = s + nqueen1(xs, nil, 11)
end
print(s)

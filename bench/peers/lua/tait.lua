-- tait: Tait's problem (scripts/tait.lisp, "the paper's program"), one pair
-- of empties, n = 9: 1 2 1 2 ... 1 2 0 0; a move lifts two adjacent stones
-- into two adjacent empty cells, order kept.  Depth-first search to depth n,
-- children in the paper's order (source p, then target q, left to right),
-- pruned by the paper's bound on the difference D' (after i >= 2 moves,
-- D' <= 2(n-i)+1); a state at depth n with D' = 1 is a solution.  32
-- solutions; repeated; prints the sum of the counts.  Lists are cons cells
-- {car, cdr}, as in the other Lua programs.
local function tait_start(n)
  local s = {0, {0, nil}}
  for i = 1, n do s = {1, {2, s}} end
  return s
end

local function stone_changes(s)
  local c, prev = 0, 0
  while s ~= nil do
    local x = s[1]
    if x ~= 0 then
      if prev ~= 0 and x ~= prev then c = c + 1 end
      prev = x
    end
    s = s[2]
  end
  return c
end

local function interior_runs(s)
  local g, seen, gap = 0, false, false
  while s ~= nil do
    if s[1] == 0 then
      if seen then gap = true end
    else
      if gap then g = g + 1 end
      gap = false
      seen = true
    end
    s = s[2]
  end
  return g
end

local function dprime(s) return stone_changes(s) + interior_runs(s) end

local function empty_pairs(s, q)
  if s[2] == nil then return nil end
  if s[1] == 0 and s[2][1] == 0 then return {q, empty_pairs(s[2], q + 1)} end
  return empty_pairs(s[2], q + 1)
end

local function move_state(s, i, p, q, a, b)
  if s == nil then return nil end
  local x
  if i == p then x = 0 elseif i == p + 1 then x = 0
  elseif i == q then x = a elseif i == q + 1 then x = b
  else x = s[1] end
  return {x, move_state(s[2], i + 1, p, q, a, b)}
end

local function tait_search(s, level, n)
  if level == n then
    if dprime(s) == 1 then return 1 else return 0 end
  end
  local targets = empty_pairs(s, 0)
  local ptr, p, i, c = s, 0, level + 1, 0
  while ptr[2] ~= nil do
    if ptr[1] ~= 0 and ptr[2][1] ~= 0 then
      local t = targets
      while t ~= nil do
        local child = move_state(s, 0, p, t[1], ptr[1], ptr[2][1])
        if i < 2 or dprime(child) <= 2 * (n - i) + 1 then
          c = c + tait_search(child, i, n)
        end
        t = t[2]
      end
    end
    ptr = ptr[2]
    p = p + 1
  end
  return c
end

local s = 0
for i = 1, 15 do
  s = s + tait_search(tait_start(9), 0, 9)
end
print(s)

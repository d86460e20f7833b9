-- cons: allocation-heavy list work: build (0 .. n-1), map 1+, reverse, sum;
-- repeated; prints the total.  Lists are cons cells {car, cdr}.
local function build(n)
  local l = nil
  for i = n - 1, 0, -1 do l = {i, l} end
  return l
end

local function map(f, l)             -- iterative, builds in order
  if l == nil then return nil end
  local head = {f(l[1]), nil}
  local tail = head
  l = l[2]
  while l ~= nil do
    local c = {f(l[1]), nil}
    tail[2] = c
    tail = c
    l = l[2]
  end
  return head
end

local function reverse(l)
  local r = nil
  while l ~= nil do r = {l[1], r}; l = l[2] end
  return r
end

local function sum(l)
  local s = 0
  while l ~= nil do s = s + l[1]; l = l[2] end
  return s
end

local total = 0
for i = 1, 13 do
  local l = build(1000000)
  local m = map(function(x) return x + 1 end, l)
  local r = reverse(m)
  total = total + sum(r)
end
print(total)

-- tak: Takeuchi function, tak(18, 12, 6) = 7, repeated; prints the sum.
local function tak(x, y, z)
  if not (y < x) then
    return z
  end
  return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y))
end

local s = 0
for i = 1, 2500 do
  s = s + tak(18, 12, 6)
end
print(s)

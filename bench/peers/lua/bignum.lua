-- bignum: 5000! by repeated multiplication, then its decimal digit sum by
-- repeated division by 10 (quotient and remainder as two operations);
-- repeated; prints the sum of the digit sums (67698 each).
-- Lua 5.4 has no bignums: naturals are written here as arrays of 32-bit
-- limbs, least significant first, zero = {}; like the Lisp bignums every
-- operation returns a fresh number.
local MASK = 0xffffffff

local function mul_small(a, k)       -- a * k, 0 < k < 2^31
  local r, carry = {}, 0
  for j = 1, #a do
    local v = a[j] * k + carry
    r[j] = v & MASK
    carry = v >> 32
  end
  local n = #a
  while carry > 0 do
    n = n + 1
    r[n] = carry & MASK
    carry = carry >> 32
  end
  return r
end

local function div_small(a, k)       -- floor(a / k)
  local q, rem = {}, 0
  for j = #a, 1, -1 do
    local v = (rem << 32) | a[j]
    q[j] = v // k
    rem = v % k
  end
  local n = #a
  while n > 0 and q[n] == 0 do q[n] = nil; n = n - 1 end
  return q
end

local function mod_small(a, k)       -- a mod k
  local rem = 0
  for j = #a, 1, -1 do
    rem = ((rem << 32) | a[j]) % k
  end
  return rem
end

local function fact(n)
  local f = {1}
  for i = 2, n do f = mul_small(f, i) end
  return f
end

local function digit_sum(x)
  local s = 0
  while #x > 0 do
    s = s + mod_small(x, 10)
    x = div_small(x, 10)
  end
  return s
end

local s = 0
for i = 1, 5 do
  s = s + digit_sum(fact(5000))
end
print(s)

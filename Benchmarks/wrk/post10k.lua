-- wrk script: POST a 10,240-byte JSON body (built once) to the target URL.
-- Usage: wrk -t2 -c64 -d10s -s Benchmarks/wrk/post10k.lua http://127.0.0.1:PORT/post
local items = {}
local length = 0
local i = 0
while length < 10100 do
  local item = string.format('{"id":%d,"v":"abcdefghij"}', i)
  items[#items + 1] = item
  length = length + #item + 1
  i = i + 1
end
local body = '{"items":[' .. table.concat(items, ",") .. ']}'
body = body .. string.rep(" ", 10240 - #body)
wrk.method = "POST"
wrk.body = body
wrk.headers["Content-Type"] = "application/json"

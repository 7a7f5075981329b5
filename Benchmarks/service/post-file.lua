-- wrk script: POST the JSON file named by the BODY environment variable to the target URL.
-- Usage: BODY=small.json wrk -t2 -c64 -d10s -s post-file.lua http://127.0.0.1:PORT/diff
local file = assert(io.open(os.getenv("BODY"), "rb"))
wrk.body = file:read("*a")
file:close()
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

done = function(summary, latency, requests)
  local non2xx = summary.errors.status
  io.write(string.format("non-2xx: %d, socket errors: connect %d read %d write %d timeout %d\n", non2xx,
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout))
end

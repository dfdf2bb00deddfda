# Starting and stopping a fluidcast server for the benchmark scripts (sourced): server_pid, port.
server_pid=""
port=""

# start_server_logged LOG ARGS...: runs `$bin serve --port 0 ARGS...` with its output in LOG and waits (at
# most 60 s) for the port it prints; exits the script with the log when it does not start.
start_server_logged() {
  local log=$1
  shift
  "$bin" serve --port 0 "$@" >"$log" 2>&1 &
  server_pid=$!
  port=""
  for _ in $(seq 600); do
    port=$(sed -nE 's|.*http://127\.0\.0\.1:([0-9]+)/.*|\1|p' "$log" | head -1)
    [ -n "$port" ] && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "bench: the server did not start:" >&2
  cat "$log" >&2
  exit 1
}

# stop_server: SIGTERM, then SIGKILL after 10 s.
stop_server() {
  [ -n "$server_pid" ] || return 0
  kill -TERM "$server_pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

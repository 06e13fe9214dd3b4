#!/usr/bin/env bash
# Starts a private nginx on 127.0.0.1 serving DIR/www, for streaming tests. Prints the port.
#   /slow/NAME     the same files at RATE bytes a second (NGINX_RATE, default 64k) after the first 64 KiB
#   /norange/NAME  the same files, Range ignored (always the whole file with 200)
#   /loop/...      redirects to itself forever
# Its access log (DIR/access.log) records each request's Range header. Stop it with nginx-stop.sh DIR.
set -euo pipefail
dir=${1:?usage: nginx-start.sh DIR}
rate=${NGINX_RATE:-64k}
mkdir -p "$dir/www" "$dir/temp"
command -v nginx >/dev/null || PATH=$PATH:/usr/sbin
for attempt in 1 2 3 4 5; do
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
  user_line=""
  if [ "$(id -u)" = 0 ]; then user_line="user root root;"; fi
  cat > "$dir/nginx.conf" <<CONF
$user_line
daemon on;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 64; }
http {
  types { audio/mpeg mp3; audio/flac flac; audio/wav wav; audio/ogg ogg; text/plain txt; }
  default_type application/octet-stream;
  log_format ranges '\$request_method \$uri \$status range=\$http_range bytes=\$body_bytes_sent at=\$msec took=\$request_time';
  access_log $dir/access.log ranges;
  client_body_temp_path $dir/temp; proxy_temp_path $dir/temp; fastcgi_temp_path $dir/temp;
  uwsgi_temp_path $dir/temp; scgi_temp_path $dir/temp;
  sendfile off;
  server {
    listen 127.0.0.1:$port;
    root $dir/www;
    location /slow/ { alias $dir/www/; limit_rate $rate; limit_rate_after 64k; }
    location /norange/ { alias $dir/www/; max_ranges 0; }
    location /loop/ { return 302 /loop/again; }
  }
}
CONF
  # The master outlives this script: it must hold none of the caller's descriptors (its output
  # pipes, or the pipe a process launcher watches for the script's exit), or the caller waits forever.
  if (
    for fd in /proc/$BASHPID/fd/*; do
      fd=${fd##*/}
      if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
    done
    exec nginx -c "$dir/nginx.conf" -p "$dir" -e "$dir/error.log" </dev/null >/dev/null 2>"$dir/start.log"
  ); then
    for _ in $(seq 100); do [ -s "$dir/nginx.pid" ] && break; sleep 0.02; done
    echo "$port"
    exit 0
  fi
  grep -q "Address already in use" "$dir/start.log" || { cat "$dir/start.log" >&2; exit 1; }
done
echo "nginx-start: no free port" >&2
exit 1

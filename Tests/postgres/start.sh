# Sourced by Tests/run.sh (bash): starts a throwaway PostgreSQL server on
# loopback with the Chinook data loaded, exports its URL for the Swift tests,
# and stops it (and removes its folder) when the sourcing shell exits.
#
#   GENERATE_TEST_POSTGRES           postgres://postgres@127.0.0.1:PORT/chinook
#   GENERATE_TEST_POSTGRES_PASSWORD  the password (the tests' configs name it
#                                    with passwordEnv:)
#
# Password authentication over TCP (scram-sha-256), so a wrong password is
# refused as on a real server. As root the server runs as `nobody` (postgres
# refuses to run as root) in a fresh folder under /tmp that nobody owns; the
# socket is in that folder too. A free port is asked of the kernel.
# Alone: `source Tests/postgres/start.sh` in an interactive bash.

pg_bin=$(command -v initdb >/dev/null 2>&1 && dirname "$(command -v initdb)" || ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
pg_dir=$(mktemp -d /tmp/generate-postgres.XXXXXX)
pg_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
pg_password="generate-test-$RANDOM$RANDOM"
printf '%s\n' "$pg_password" >"$pg_dir/pwfile"
pg_as() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
  chown -R nobody "$pg_dir"
  pg_as() { su nobody -s /bin/sh -c "cd /tmp && $(printf '%q ' "$@")"; }
fi
pg_as "$pg_bin/initdb" -D "$pg_dir/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
  --pwfile="$pg_dir/pwfile" -E UTF8 --locale=C.UTF-8 >"$pg_dir/initdb.log" 2>&1 \
  || { cat "$pg_dir/initdb.log"; exit 1; }
pg_as "$pg_bin/pg_ctl" -D "$pg_dir/data" -w -l "$pg_dir/log" \
  -o "-p $pg_port -k $pg_dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null \
  || { cat "$pg_dir/log"; exit 1; }
pg_stop() {
  pg_as "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$pg_dir"
}
trap pg_stop EXIT

export GENERATE_TEST_POSTGRES="postgres://postgres@127.0.0.1:$pg_port/chinook"
export GENERATE_TEST_POSTGRES_PASSWORD="$pg_password"
PGPASSWORD="$pg_password" psql -q -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -c 'CREATE DATABASE chinook' >/dev/null
python3 Tests/postgres/load.py Data/chinook/chinook.sqlite --keys --oddities \
  | PGOPTIONS="-c client_min_messages=warning" PGPASSWORD="$pg_password" psql -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pg_port" -U postgres -d chinook >/dev/null
echo "PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$pg_port with Chinook loaded"

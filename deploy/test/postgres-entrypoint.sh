#!/bin/sh
# What the official postgres image's entrypoint does with the settings deploy/compose.yaml uses: a new
# PGDATA is initialised for POSTGRES_USER with the password of POSTGRES_PASSWORD_FILE (scram-sha-256
# over the network), POSTGRES_DB is created, then postgres runs as the postgres user.
set -eu
: "${PGDATA:=/var/lib/postgresql/data}"
if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then POSTGRES_PASSWORD=$(cat "$POSTGRES_PASSWORD_FILE"); fi
: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD or POSTGRES_PASSWORD_FILE}"
user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}
mkdir -p "$PGDATA" /var/run/postgresql
chown -R postgres:postgres "$PGDATA" /var/run/postgresql
chmod 0700 "$PGDATA"
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s' "$POSTGRES_PASSWORD" >"$pwfile"
  chown postgres "$pwfile"
  as_postgres initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  if [ "$db" != "postgres" ]; then
    as_postgres pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    as_postgres createdb -U "$user" "$db"
    as_postgres pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
  echo "Initialised $PGDATA for $user with database $db"
fi
if [ "${1:-}" = "postgres" ]; then
  shift
  exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" "$@"
fi
exec "$@"

# shellcheck shell=bash
# smoke.sh — sourced by the packaging tests (tests/pkg/): TAP-style results and the smoke test
# an installed Errata must pass. Every check takes the command that runs errata as its
# arguments (e.g. `chroot ROOT errata`), so one check serves a prefix, a package and a binary.

SEED_ID=huggingface/torch-compile-incompatible-with-peft
SEED_MSG="RuntimeError: torch.compile is not supported for PEFT models with dynamic adapters"

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $1"; }
# notok DESCRIPTION [DETAIL]: DETAIL is shown as '#' lines.
notok() {
    fail=$((fail + 1))
    echo "not ok - $1"
    [ $# -gt 1 ] && printf '%s\n' "$2" | head -40 | sed 's/^/#   /'
    return 0
}
# finish: the result line, and the exit status: 1 if anything failed.
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ] && exit 0; exit 1; }

# smoke_lookup ERRATA_CMD…: with ERRATA_DB unset (and no --db unless ERRATA_CMD gives one),
# errata answers the seed record's message with the seed's id, exit 0.
smoke_lookup() {
    local out rc id
    out=$(env -u ERRATA_DB "$@" lookup --json "$SEED_MSG" 2>&1)
    rc=$?
    id=$(printf '%s' "$out" | jq -r '.matches[0].id' 2>/dev/null)
    if [ "$rc" -eq 0 ] && [ "$id" = "$SEED_ID" ]; then
        ok "errata lookup answers the seed's message with $SEED_ID"
    else
        notok "errata lookup answers the seed's message with $SEED_ID (exit $rc, first match '$id')" "$out"
    fi
}

# smoke_healthz LOG ERRATA_CMD…: `errata serve` on a free loopback port (its stderr in LOG, a
# file the command can write) answers GET /healthz with status ok and a record count; stopped after.
smoke_healthz() {
    local log=$1 spid addr resp body status records
    shift
    env -u ERRATA_DB "$@" serve --listen 127.0.0.1:0 2>"$log" &
    spid=$!
    addr=
    for _ in $(seq 100); do
        addr=$(sed -n 's|.*serving on http://\([0-9.]*:[0-9]*\).*|\1|p' "$log")
        [ -n "$addr" ] && break
        kill -0 "$spid" 2>/dev/null || break
        sleep 0.1
    done
    if [ -z "$addr" ]; then
        notok "errata serve starts" "$(cat "$log")"
    else
        # Over bash's /dev/tcp: the test needs no HTTP client.
        resp=$(exec 3<>"/dev/tcp/${addr%:*}/${addr#*:}" &&
               printf 'GET /healthz HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n' "$addr" >&3 &&
               timeout 10 cat <&3)
        body=${resp#*$'\r\n\r\n'}
        status=$(printf '%s' "$body" | jq -r .status 2>/dev/null)
        records=$(printf '%s' "$body" | jq -r .records 2>/dev/null)
        if [[ "$resp" == "HTTP/1.1 200"* ]] && [ "$status" = ok ] && [[ "$records" =~ ^[1-9][0-9]*$ ]]; then
            ok "errata serve (errata-serve found beside errata) answers /healthz: $records records"
        else
            notok "errata serve answers /healthz with status ok" "$resp"
        fi
    fi
    kill "$spid" 2>/dev/null
    wait "$spid" 2>/dev/null
}

# overlay_root DIR: in a private mount namespace (the caller's unshare --mount), mounts at
# DIR/root a writable copy of /, plus /proc, /dev and an empty /tmp, for chroot. Writes go to
# DIR/upper; the real system is never written. Fails (a 'not ok') if it cannot mount.
overlay_root() {
    local dir=$1
    mkdir -p "$dir/upper" "$dir/work" "$dir/root"
    if ! mount -t overlay overlay -o "lowerdir=/,upperdir=$dir/upper,workdir=$dir/work" "$dir/root"; then
        notok "an overlay of / mounts (the test needs root and overlayfs)"
        return 1
    fi
    if ! { mount -t proc proc "$dir/root/proc" && mount --rbind /dev "$dir/root/dev" &&
           mount -t tmpfs tmpfs "$dir/root/tmp"; }; then
        notok "/proc, /dev and /tmp mount in the copy of /"
        return 1
    fi
}

#!/usr/bin/env bash
# Start, stop or check a single-node SLURM on this (Debian) machine, as root, to try the
# workflow's SLURM profile without a cluster:
#   bash scripts/slurm-local.sh start    # install slurm-wlm and munge if needed, start them
#   bash scripts/slurm-local.sh status   # exit 0 when a job can be submitted
#   bash scripts/slurm-local.sh stop     # stop the three daemons
#   bash scripts/slurm-local.sh remove   # stop them and uninstall the SLURM packages
# While SLURM's commands are installed, Snakemake's SLURM plugin asks the controller for
# its configuration (`scontrol show config`) whenever Snakemake starts, even for a local
# run; with the controller stopped that question times out after 10 s, so every snakemake
# command takes 10 s longer until `remove` uninstalls them.
# The node offers this machine's CPUs and 80% of its memory, in one partition `debug`,
# without accounting (so Snakemake's SLURM plugin must query job states with squeue, as
# workflow/profiles/slurm does). State, logs and PID files live in $SLURM_LOCAL_DIR
# (default /var/tmp/cvcompare-slurm); the configuration is written to /etc/slurm.
set -euo pipefail
DIR=${SLURM_LOCAL_DIR:-/var/tmp/cvcompare-slurm}
CONF=/etc/slurm/slurm.conf

need_root() {
    if [ "$(id -u)" -ne 0 ]; then
        echo "slurm-local.sh: must run as root (it installs packages and starts daemons)" >&2
        exit 1
    fi
}

install() {
    if command -v slurmctld >/dev/null && command -v munged >/dev/null && command -v sbatch >/dev/null; then
        return
    fi
    if ! command -v apt-get >/dev/null; then
        echo "slurm-local.sh: needs apt-get (Debian or Ubuntu) to install slurm-wlm and munge" >&2
        exit 1
    fi
    echo "installing slurm-wlm and munge from the Debian packages ..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
}

configure() {
    local cpus mem
    cpus=$(nproc)
    mem=$(awk '/MemTotal/ {printf "%d", $2 / 1024 * 0.8}' /proc/meminfo)
    mkdir -p "$DIR/state" "$DIR/spool" /etc/slurm /etc/munge /run/munge /var/log/munge /var/lib/munge
    cat >"$CONF" <<EOF
# Written by cvcompare's scripts/slurm-local.sh: a single-node SLURM for trying the workflow.
ClusterName=cvcompare-local
SlurmctldHost=localhost
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    if [ ! -s /etc/munge/munge.key ]; then
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    fi
    chmod 400 /etc/munge/munge.key
    chown -R root:root /etc/munge /run/munge /var/log/munge /var/lib/munge
}

running() {
    local pidfile=$1
    [ -s "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null
}

start() {
    need_root
    install
    configure
    if ! pgrep -x munged >/dev/null; then
        munged --force --pid-file="$DIR/munged.pid"
    fi
    local fresh=0
    if ! running "$DIR/slurmctld.pid"; then
        # -c: start with an empty queue. Jobs saved by an earlier, stopped SLURM belong to a
        # submitter that is gone (a killed Snakemake run); recovered, they would run
        # unwatched and hold the CPUs that a resumed run needs.
        slurmctld -c
        fresh=1
    fi
    running "$DIR/slurmd.pid" || slurmd -N localhost
    for _ in $(seq 60); do
        if node_up; then
            break
        fi
        scontrol update nodename=localhost state=resume >/dev/null 2>&1 || true
        sleep 1
    done
    if ! status; then
        echo "slurm-local.sh: SLURM did not come up; see $DIR/slurmctld.log and $DIR/slurmd.log" >&2
        exit 1
    fi
    # On an empty queue, run one job end to end (submission, the node, munge on both sides).
    if [ "$fresh" -eq 1 ] && ! sbatch --wait --quiet --output=/dev/null --wrap true; then
        echo "slurm-local.sh: a test job failed; see $DIR/slurmctld.log and $DIR/slurmd.log" >&2
        exit 1
    fi
    echo "SLURM is running: partition debug, $(nproc) CPUs (state and logs in $DIR)"
}

node_up() {
    sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)$'
}

# Whether a job can be submitted now, without submitting one: the node is up and the
# controller accepts a job (--test-only), however busy the queue.
status() {
    command -v sbatch >/dev/null || return 1
    if ! node_up; then
        echo "slurm-local.sh: the node is not up ($(sinfo -h -o '%t' 2>&1))" >&2
        return 1
    fi
    local out
    out=$(sbatch --test-only --wrap true 2>&1) || {
        echo "$out" >&2
        return 1
    }
}

stop() {
    need_root
    for name in slurmd slurmctld munged; do
        if running "$DIR/$name.pid"; then
            kill "$(cat "$DIR/$name.pid")"
        fi
    done
    echo "SLURM stopped"
}

# SLURM's own packages, with the commands Snakemake's plugin looks for (their automatically
# installed dependencies and munge stay).
remove() {
    stop
    DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq slurm-wlm slurm-client slurmctld slurmd >/dev/null
    rm -f "$CONF"
    echo "SLURM removed (state and logs kept in $DIR)"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status) status && echo "SLURM accepts jobs" ;;
    remove) remove ;;
    *)
        echo "usage: bash scripts/slurm-local.sh start|status|stop|remove" >&2
        exit 2
        ;;
esac

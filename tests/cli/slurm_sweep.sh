#!/usr/bin/env bash
# Runs a sweep's emitted Slurm array on a one-node Slurm cluster started here for the purpose:
# slurmctld and slurmd as this user on this host, authentication off (auth/none: nothing leaves the
# machine), state and logs in WORK. Then merges the results. Used by tests/cli/cli_sweep_test.cpp.
# Usage: slurm_sweep.sh TRAINSIM RUN.yaml WORK VARY...   (WORK is emptied first)
set -euo pipefail
bin=$1 run=$2 work=$3
shift 3
rm -rf "$work"
mkdir -p "$work/state" "$work/spool"
host=$(hostname -s)
user=$(id -un)
port=$((20000 + $$ % 20000))
cat >"$work/slurm.conf" <<CONF
ClusterName=trainsimtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=sweep Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf
slurmctld -D -i >"$work/slurmctld.out" 2>&1 &
ctld=$!
slurmd -D >"$work/slurmd.out" 2>&1 &
d=$!
trap 'kill $d $ctld 2>/dev/null || true; wait $d $ctld 2>/dev/null || true' EXIT
for _ in $(seq 60); do
  sinfo -h -o %T 2>/dev/null | grep -q idle && break
  sleep 0.5
done
sinfo -h -o %T | grep -q idle || { echo "slurm_sweep: the node never became idle" >&2; tail "$work"/*.log >&2; exit 1; }
"$bin" sweep "$run" "$@" --emit-jobs "$work/jobs" >/dev/null
timeout 300 sbatch --wait --quiet "$work/jobs/sweep.sbatch"
"$work/jobs/merge.sh" --csv "$work/merged.csv" >"$work/merged.out"

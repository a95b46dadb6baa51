"""One pass (a forward or a backward) measured three ways: on the device (do_bench), in kernels (torch
profiler) and on the host (wall time of issuing it on an idle device), with the synchronising calls torch
sees in it; and a host sync's floor. Shared by the MoE layer and the host tables."""
import statistics
import time
import warnings

import torch

from measuring.common import DEV, bench_us


def guard(what, fn):
    try:
        return fn()
    except Exception as err:  # noqa: BLE001 - a metric failing is reported as null, not fatal
        print(f"{what}: {err!r}")
        return None


def cpu_sync_us(reps):
    """Median round trip of a 1-element device-to-host copy with the device idle: a host sync's floor."""
    t = torch.ones(1, device=DEV)
    times = []
    for _ in range(reps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        t.cpu()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6


def host_us(run, clear, reps):
    """Median wall time of the host issuing run() on an idle device (synchronised outside the timed region;
    the result is kept past the timer so that freeing it is not counted). clear() runs before each."""
    times = []
    for _ in range(reps):
        if clear:
            clear()
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        keep = run()
        times.append(time.perf_counter() - t0)
        del keep
    torch.cuda.synchronize()
    return statistics.median(times) * 1e6


def profiled(run):
    """(torch profiler of one run() to its device end, run()'s result)."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        keep = run()
        torch.cuda.synchronize()
    return prof, keep


def count_kernels(run, clear):
    """CUDA kernels one run() launches (torch profiler; memcpy and memset not counted), after a warm-up run."""
    from torch.autograd import DeviceType
    for _ in range(2):
        if clear:
            clear()
        torch.cuda.synchronize()
        prof, keep = profiled(run)
        del keep
    names = [e.name for e in prof.events() if e.device_type == DeviceType.CUDA]
    return sum(1 for n in names if not n.startswith(("Memcpy", "Memset"))) or None


def sync_calls(run, clear):
    """Synchronising calls torch reports (set_sync_debug_mode warn) in one run()."""
    if clear:
        clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.cuda.set_sync_debug_mode("warn")
        try:
            keep = run()
        finally:
            torch.cuda.set_sync_debug_mode("default")
    del keep
    torch.cuda.synchronize()
    return sum(1 for w in caught if "synchroniz" in str(w.message))


def pass_metrics(what, run, clear, grads, quick, module):
    """device_us: do_bench of run() (with whatever syncs it makes); kernels: the profiler's count; host_us and
    host_syncs: with module.sync False (split sizes known on the host, no .cpu()), so that the host, not a
    wait for the device, is what is timed (host_syncs 0 confirms it)."""
    dev = guard(f"{what} device_us", lambda: bench_us(run, grad_to_none=grads, quick=quick))
    kernels = guard(f"{what} kernels", lambda: count_kernels(run, clear))
    module.sync = False
    try:
        host = guard(f"{what} host_us", lambda: host_us(run, clear, 5 if quick else 20))
        syncs = guard(f"{what} host_syncs", lambda: sync_calls(run, clear))
    finally:
        module.sync = True
    return dict(device_us=dev, kernels=kernels, host_us=host, host_syncs=syncs)


def op_metrics(name, pas, run, clear, leaves, quick):
    """One pass of eager operations (no module to switch): the same four metrics as pass_metrics, as a row
    {op, pas, device_us, kernels, host_us, host_syncs}; `leaves` get their gradients cleared by do_bench."""
    return dict(op=name, pas=pas,
                device_us=guard(f"{name} {pas} device_us", lambda: bench_us(run, grad_to_none=leaves, quick=quick)),
                kernels=guard(f"{name} {pas} kernels", lambda: count_kernels(run, clear)),
                host_us=guard(f"{name} {pas} host_us", lambda: host_us(run, clear, 5 if quick else 20)),
                host_syncs=guard(f"{name} {pas} host_syncs", lambda: sync_calls(run, clear)))

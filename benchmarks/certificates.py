"""Certificates of every bundled collection (but flawed): how many are
written, their size (gzip-compressed; total and largest), and the CPU time to
write them (verify's own time apart) and to check the collection's file.

    python benchmarks/certificates.py                  # every collection
    python benchmarks/certificates.py seed-ito --time-limit 30
    python benchmarks/certificates.py records --id composed-ito-01 --time-limit 3600

A problem the writer cannot certify within the time limit (seconds of search
per problem) is counted with its reason.  The flawed collection is measured
too: its flawed and unsound problems must all be refused (its sound ones,
with information findings only, are certified).  The slowest problem's
write time is printed with its id.
"""

from __future__ import annotations

import argparse
import re
import time

from tsume import Limits, verify
from tsume import collection as C
from tsume.certificate.check import check_certificate
from tsume.certificate.write import CertificateError, certificate_for, pack


def measure(name: str, time_limit: float, ids: set[str] | None = None) -> dict:
    written, sizes, refused = [], [], {}
    write_cpu = check_cpu = 0.0
    slowest = (0.0, "")
    for rec in C.load(C.locate(name)):
        if ids and rec.id not in ids:
            continue
        problem = rec.problem()
        report = verify(problem, id=rec.id)
        started = time.process_time()
        try:
            cert = certificate_for(problem, report, limits=Limits(time=time_limit), check=False)
        except CertificateError as exc:
            reason = str(exc).split(" at ")[0].split(":")[-1].strip()
            # One finding kind once: "flawed (detour, detour)" -> "flawed (detour)".
            reason = re.sub(r"\((.*)\)", lambda m: f"({', '.join(dict.fromkeys(m[1].split(', ')))})", reason)
            refused[reason] = refused.get(reason, 0) + 1
            continue
        finally:
            spent = time.process_time() - started
            write_cpu += spent
            slowest = max(slowest, (spent, rec.id))
        assert report.verdict == "sound"
        written.append(cert)
        sizes.append(len(pack([cert])))
    whole = pack(written) if written else b""
    if written:  # as `tsume check FILE` does: the whole file in one call
        started = time.process_time()
        result = check_certificate(whole)
        check_cpu = time.process_time() - started
        assert result.accepted, result.line()
    return {"collection": name, "certified": len(written), "refused": refused, "bytes": len(whole),
            "largest": max(sizes, default=0), "write_cpu": write_cpu, "check_cpu": check_cpu, "slowest": slowest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(C.bundled_names()))
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds of search per problem (writer)")
    parser.add_argument("--id", action="append", default=None, help="only this problem (may be given more than once)")
    args = parser.parse_args()
    for name in args.names:
        m = measure(name, args.time_limit, set(args.id) if args.id else None)
        refused = "; ".join(f"{n} {why}" for why, n in sorted(m["refused"].items(), key=lambda kv: -kv[1])) or "none"
        print(f"{m['collection']}: {m['certified']} certified, {m['bytes']:,} bytes (largest {m['largest']:,}), "
              f"write {m['write_cpu']:.1f} s CPU (slowest {m['slowest'][0]:.1f} s, {m['slowest'][1]}), "
              f"check {m['check_cpu']:.1f} s CPU; not certified: {refused}",
              flush=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Password guessing against a running pairs server, as issue 19 measured it, with history latency beside it.

CONNECTIONS guessers each loop: open a fresh connection, read welcome, `hello NAME` with a wrong password,
read the answer, close. Meanwhile one more connection asks `history` in a loop and times each answer.
Prints guesses checked per second (answered bad_password), refused per second (too_many_guesses or busy),
and history latency p50/p99/max in ms.

    bench/guessing.py --port 7777 --name ann --connections 300 --seconds 20

The name must be claimed first (e.g. `pairs play --name ann --password`, or the --claim flag here).
"""
import argparse
import asyncio
import json
import time


async def read_json(reader):
    while True:
        line = await reader.readline()
        if not line:
            raise ConnectionError("closed")
        try:
            return json.loads(line)
        except ValueError:
            continue


async def guesser(host, port, name, stop, counts, index):
    attempt = 0
    while time.monotonic() < stop:
        attempt += 1
        try:
            reader, writer = await asyncio.open_connection(host, port)
            await read_json(reader)  # welcome
            writer.write((json.dumps({"type": "hello", "name": name, "password": f"guess-{index}-{attempt}"}) + "\n").encode())
            await writer.drain()
            while True:
                message = await read_json(reader)
                if message.get("type") in ("error", "welcome"):
                    break
            code = message.get("code", "welcome")
            counts[code] = counts.get(code, 0) + 1
            writer.close()
        except (ConnectionError, OSError):
            counts["connection_error"] = counts.get("connection_error", 0) + 1
            await asyncio.sleep(0.01)


async def historian(host, port, stop, latencies):
    reader, writer = await asyncio.open_connection(host, port)
    await read_json(reader)
    request = 0
    while time.monotonic() < stop:
        request += 1
        started = time.monotonic()
        writer.write((json.dumps({"type": "history", "limit": 5, "id": request}) + "\n").encode())
        await writer.drain()
        while True:
            message = await read_json(reader)
            if message.get("id") == request and not message.get("more"):
                break
        latencies.append((time.monotonic() - started) * 1000)
        await asyncio.sleep(0.05)
    writer.close()


async def claim(host, port, name, password):
    reader, writer = await asyncio.open_connection(host, port)
    await read_json(reader)
    writer.write((json.dumps({"type": "hello", "name": name, "password": password}) + "\n").encode())
    await writer.drain()
    print("claim:", (await read_json(reader)).get("type"))
    writer.close()


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=7777)
    parser.add_argument("--name", default="ann")
    parser.add_argument("--claim", metavar="PASSWORD", help="claim NAME with PASSWORD first")
    parser.add_argument("--connections", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20)
    arguments = parser.parse_args()
    if arguments.claim:
        await claim(arguments.host, arguments.port, arguments.name, arguments.claim)
    counts, latencies = {}, []
    started = time.monotonic()
    stop = started + arguments.seconds
    tasks = [guesser(arguments.host, arguments.port, arguments.name, stop, counts, index) for index in range(arguments.connections)]
    tasks.append(historian(arguments.host, arguments.port, stop, latencies))
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - started
    checked = counts.get("bad_password", 0)
    refused = counts.get("too_many_guesses", 0) + counts.get("busy", 0)
    print(f"connections={arguments.connections} seconds={elapsed:.1f} checked_per_s={checked / elapsed:.1f} "
          f"refused_per_s={refused / elapsed:.1f} answers={counts}")
    print(f"history n={len(latencies)} p50_ms={percentile(latencies, 0.5):.1f} p99_ms={percentile(latencies, 0.99):.1f} "
          f"max_ms={max(latencies) if latencies else float('nan'):.1f}")


asyncio.run(main())

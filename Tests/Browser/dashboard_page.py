#!/usr/bin/env python3
"""Opens the server's live dashboard (/dashboard) in headless Chromium, driven by Selenium.

Run by Tests/PairsServerTests/DashboardBrowserTests.swift against a real server on which `pairs load` plays a
few games for a few seconds and then stops. At 1280x800 (light) and at 390x844 (a phone, dark) the page must
poll /stats, draw its charts (SVG paths with points; the flips line above zero while the games run), show no
room name, fit the phone's width, and log no console error. Once the games have stopped (the counters of
/stats stay still), every number the page shows with `data-stat` must equal /stats fetched right after the
page's next poll. Screenshots go to OUT.

Prints one line per check passed and "passed" at the end; exits 1 with the reason on the first failure, and
never waits longer than --seconds in all.
"""

import argparse
import json
import os
import signal
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from play_page import Deadline, Failure, POLL_SECONDS, browser, emulate, say, screenshot, visited_before  # noqa: E402  (exits 3 without selenium)
from selenium.common.exceptions import WebDriverException  # noqa: E402

DESKTOP = (1280, 800)
PHONE = (390, 844)
STILL_SECONDS = 1.5  # how long /stats must stay the same before the games count as stopped

READ = """
const stats = {};
for (const el of document.querySelectorAll("[data-stat]")) stats[el.dataset.stat] = el.textContent;
const paths = {};
for (const p of document.querySelectorAll("svg.chart path[data-series]"))
  paths[p.dataset.series] = (p.getAttribute("d").match(/[ML]/g) || []).length;
return {polls: Number(document.body.dataset.polls || 0), stats, paths,
        flipsShown: series.flips.some(v => v > 0), text: document.body.innerText,
        scrollWidth: document.documentElement.scrollWidth};
"""


def stats(args):
    with urllib.request.urlopen(args.url + "stats", timeout=10) as reply:
        return json.load(reply)


def wait_for(deadline, what, probe):
    while True:
        found = probe()
        if found:
            return found
        if deadline.left() <= 0:
            raise Failure(f"timed out waiting for {what}")
        time.sleep(POLL_SECONDS)


def no_console_errors(driver, where):
    errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    if errors:
        raise Failure(f"console errors at {where}: {errors}")


def check_view(args, deadline, driver, size, dark, name, running):
    emulate(driver, size, phone=size == PHONE, dark=dark)
    visited_before(args.url)  # so Chromium's first socket is not greeted (play_page.visited_before says why)
    driver.get(args.url + "dashboard")
    page = wait_for(deadline, f"three polls drawn at {size[0]}x{size[1]}",
                    lambda: (lambda p: p if p["polls"] >= 3 else None)(driver.execute_script(READ)))
    # Latency has points only for seconds in which something was answered.
    for series in ("flips", "messages", "connections", "games") + (("p50", "p99") if running else ()):
        if page["paths"].get(series, 0) < 2:
            raise Failure(f"the {series} line has fewer than two points at {size[0]}x{size[1]}: {page['paths']}")
    if running:
        wait_for(deadline, "a flips/s point above zero while the games run", lambda: driver.execute_script(READ)["flipsShown"])
        page = driver.execute_script(READ)
    if args.room_prefix in page["text"]:
        raise Failure("the page shows a room's name")
    if page["scrollWidth"] > size[0]:
        raise Failure(f"the page is {page['scrollWidth']} px wide in a {size[0]} px window")
    say(f"ok: {size[0]}x{size[1]} polls /stats and draws its lines")
    return page


def numbers_equal_stats(args, deadline, driver, size):
    """Once /stats stands still, what the page shows after its next poll is /stats. A change on the server
    between the two fetches around the page's poll (a seat's grace running out) means trying again."""
    keys = ("flips", "messages_in", "messages_out", "games_finished", "connections", "rooms", "games_active",
            "games_stored", "storage_errors", "errors", "store_queue", "loops")

    def still():
        first = stats(args)
        time.sleep(STILL_SECONDS)
        second = stats(args)
        return all(first.get(k) == second.get(k) for k in keys)
    while True:
        wait_for(deadline, "the games to stop (/stats standing still)", still)
        before = stats(args)
        polls = driver.execute_script(READ)["polls"]
        page = wait_for(deadline, "the page's next poll",
                        lambda: (lambda p: p if p["polls"] > polls else None)(driver.execute_script(READ)))
        now = stats(args)
        if all(before.get(k) == now.get(k) for k in keys):
            break
        say("the server's counters moved while the page polled; again")
    for key, shown in page["stats"].items():
        if shown != str(now[key]):
            raise Failure(f"{key}: the page shows {shown}, /stats says {now[key]} at {size[0]}x{size[1]}")
    if int(page["stats"]["flips"]) == 0:
        raise Failure("no flips were played")
    errors = driver.execute_script('return [...document.querySelectorAll("#errors tr[data-code]")]'
                                   '.map(r => [r.dataset.code, Number(r.cells[2].textContent)])')
    if dict(errors) != now["errors"]:
        raise Failure(f"errors by code: the page shows {errors}, /stats says {now['errors']}")
    # A row per event loop, each with its connections and rooms as /stats has them.
    loops = driver.execute_script('return [...document.querySelectorAll("#loops tr[data-loop]")]'
                                  '.map(r => [Number(r.cells[2].textContent), Number(r.cells[3].textContent)])')
    expected = [[loop["connections"], loop["rooms"]] for loop in now.get("loops", [])]
    if not expected or loops != expected:
        raise Failure(f"loops: the page shows {loops}, /stats says {expected}")
    say(f"ok: at {size[0]}x{size[1]} the page's {len(page['stats'])} numbers, {len(errors)} error codes and "
        f"{len(loops)} loops equal /stats")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="the server, http://HOST:PORT/")
    parser.add_argument("--room-prefix", required=True, help="the load's room prefix, which the page must never show")
    parser.add_argument("--out", required=True, help="directory for the screenshots")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--seconds", type=float, default=60, help="the longest the whole run may take")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    deadline = Deadline(args.seconds)
    os.makedirs(args.out, exist_ok=True)
    driver = None
    try:
        driver = browser(args, DESKTOP, phone=False, console=True)
        say("ok: a headless browser")
        check_view(args, deadline, driver, DESKTOP, False, "dashboard-1280.png", running=True)
        screenshot(driver, args.out, "dashboard-1280.png")
        numbers_equal_stats(args, deadline, driver, DESKTOP)
        no_console_errors(driver, "1280x800")
        check_view(args, deadline, driver, PHONE, True, "dashboard-390-dark.png", running=False)
        numbers_equal_stats(args, deadline, driver, PHONE)
        screenshot(driver, args.out, "dashboard-390-dark.png")
        no_console_errors(driver, "390x844")
        say("passed")
        return 0
    except (Failure, WebDriverException) as error:
        print(f"dashboard_page.py: {error}", file=sys.stderr)
        if driver is not None:
            try:
                screenshot(driver, args.out, "failure.png")
            except Exception:
                pass
        return 1
    finally:
        if driver is not None:
            driver.quit()


if __name__ == "__main__":
    sys.exit(main())

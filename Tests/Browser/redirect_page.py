#!/usr/bin/env python3
"""Follows the cluster's redirects through the browser page in headless Chromium, driven by Selenium.

Run by Tests/PairsClusterTests/ClusterBrowserTests.swift against three `pairs serve --cluster` instances on one
Redis: OWNER, where a `pairs bot` waits in ROOM; ALLOWED, which OWNER and it list each other as peers
(--allow-origin: each lets the other's pages connect, and its own page connect there); and ELSEWHERE, which
lists nobody and which OWNER does not list.

A phone opens ALLOWED's page with ?room=ROOM: the page says in hello that it follows redirects, is sent to
OWNER, moves its WebSocket there (the page stays ALLOWED's) and plays the whole game against the bot. A desktop
opens ELSEWHERE's page with ?watch=ROOM: its page may not open a socket to OWNER, so the page goes
on as OWNER's own page, and watches the game there. (A page says hello, with `redirects`, once it has a name:
both have one.)

Prints one line per check passed and "passed" at the end; exits 1 with the reason on the first failure, and
never waits longer than --seconds in all.
"""

import argparse
import os
import signal
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from play_page import (DESKTOP, PHONE, Deadline, Failure, Player, browser, load, quit_browsers, say,  # noqa: E402  (exits 3 without selenium)
                       screenshot_failure, visited_before, wait_for)
from selenium.common.exceptions import WebDriverException  # noqa: E402


def host_of(driver):
    return driver.execute_script("return location.host")


def follow(args, deadline, phone, desktop):
    allowed, elsewhere, owner = (urllib.parse.urlsplit(url).netloc for url in (args.allowed, args.elsewhere, args.owner))
    room = urllib.parse.quote(args.room)
    # The desktop will land on the owner's page: the owner has served this machine before, as the others have.
    visited_before(args.owner)

    load(phone, f"{args.allowed.rstrip('/')}/?room={room}&name={urllib.parse.quote(args.name)}")
    shown = wait_for(phone, deadline, "the game to start in the owner's room",
                     lambda p: p if p["view"] == "game" and p["phase"] in ("playing", "reveal") else None)
    if host_of(phone) != allowed:
        raise Failure(f"the phone's page moved to {host_of(phone)}: it should have moved only its socket")
    if not any(p["text"].endswith(args.name + " (you)") for p in shown["players"]):
        raise Failure(f"the phone is not seated as {args.name}: {shown['players']}")
    if not any(args.opponent in p["text"] for p in shown["players"]):
        raise Failure(f"the phone is not with {args.opponent}: {shown['players']}")
    say(f"ok: the page of {allowed} sat in {args.room} on {owner} against {args.opponent}, its socket moved there")

    load(desktop, f"{args.elsewhere.rstrip('/')}/?watch={room}&name=eve")
    watching = wait_for(desktop, deadline, "the watcher's board on the owner's page",
                        lambda p: p if p["view"] == "game" and p["seat"] == "watching" and p["cards"] else None)
    if host_of(desktop) != owner:
        raise Failure(f"the page of {elsewhere} watches from {host_of(desktop)}, not as the page of {owner}")
    say(f"ok: the page of {elsewhere}, which may not connect to {owner}, went on as {owner}'s page and watches, {len(watching['cards'])} cards")

    # The bot plays one game and leaves at once, so the room may be waiting again by the time the page is
    # looked at: the game's end is its result, which stays on show.
    player = Player(phone, deadline)
    while True:
        shown = wait_for(phone, deadline, "my turn or the result",
                         lambda p: p if p["result"] or (p["mine"] and p["phase"] == "playing"
                                                        and not any(c["state"] == "up" for c in p["cards"])) else None)
        if shown["result"] or not player.take_turn():
            break
    over = wait_for(phone, deadline, "the result", lambda p: p if p["result"] else None)
    wait_for(desktop, deadline, "the watcher to see the game end", lambda p: p["result"])
    say(f"ok: the game played to its end through the moved socket ({player.flips} flips): {over['result']['kind']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--owner", required=True, help="the page of the instance that holds ROOM, http://HOST:PORT/")
    parser.add_argument("--allowed", required=True, help="the page of an instance whose origin OWNER allows")
    parser.add_argument("--elsewhere", required=True, help="the page of an instance whose origin OWNER refuses")
    parser.add_argument("--room", required=True, help="the room the bot waits in, on OWNER")
    parser.add_argument("--opponent", required=True, help="the bot's name")
    parser.add_argument("--name", default="ann", help="the phone's player name")
    parser.add_argument("--out", required=True, help="directory for screenshots of a failure")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--seconds", type=float, default=75, help="the longest the whole run may take")
    args = parser.parse_args()
    # A test that gives up on this script sends SIGTERM: quit the browsers (the finally below) on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    deadline = Deadline(args.seconds)
    os.makedirs(args.out, exist_ok=True)
    phone = desktop = None
    try:
        phone = browser(args, PHONE, phone=True)
        desktop = browser(args, DESKTOP, phone=False)
        say("ok: two headless browsers")
        follow(args, deadline, phone, desktop)
        say("passed")
        return 0
    except (Failure, WebDriverException) as error:
        print(f"redirect_page.py: {error}", file=sys.stderr)
        screenshot_failure(args.out, phone=phone, desktop=desktop)
        return 1
    finally:
        quit_browsers(phone, desktop)


if __name__ == "__main__":
    sys.exit(main())

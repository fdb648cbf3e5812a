#!/usr/bin/env python3
"""Plays Pairs through the browser page in headless Chromium, driven by Selenium.

Run by Tests/PairsClientTests/BrowserPageTests.swift against a real `pairs serve`, in one of two scenarios.

game (a server with --data none, and a `pairs bot` in ROOM): one phone-sized browser (360 px, touch) joins
ROOM by URL and plays a whole game against the bot with taps, clicks and the keyboard: every flip must end
its animation in the state its `data-state` says, a mismatch must be shown and then hidden, and the page
is reloaded in the middle of the game and must take its seat back. A desktop browser (1280 px) watches the
same game, and both see a chat line. Then the phone leaves for the lobby.

solo (a server with --data none): the phone alone plays a solo game of playing cards with rules chosen in
the lobby's form, every flip checked as in the game; then a solo game of words that it lets run out of time,
after which every card nobody found must show its face, dimmed and in no player's colour, until the next
game starts.

names (a server that keeps games): the desktop claims a name with a password; the phone, given that name
in its URL, must ask for the password, refuse a wrong one and take the right one; it clears a solo board
and the lobby's last games show it.

reloads (a server with --data none, --turn-seconds 0, and a `pairs bot` in ROOM): the first visit comes
while the server is stopped (SIGSTOP to --server-pid, so its request waits in the socket), then the desktop
reloads the lobby after each idle time of --idle (seconds), joins ROOM by URL and reloads the game after
each again, taking its seat back every time, then reloads the game --reloads times in a row. Chromium keeps
sockets it opened ahead of need and sends a later request on them: none may have been greeted.

Screenshots of the lobby and of finished games go to OUT.

Prints one line per check passed and, at the end, "result: KIND MINE THEIRS" (the phone's result and
scores, for the test to compare with the bot's own line) and "passed". Exits 1 with the reason on the
first failure, and never waits longer than --seconds in all.
"""

import argparse
import base64
import http.client
import os
import re
import socket
import subprocess
import sys
import signal
import threading
import time
import traceback
import urllib.parse
import urllib.request

os.environ.setdefault("SE_OFFLINE", "true")  # never let Selenium look for a driver on the network

try:
    from selenium import webdriver
    from selenium.common.exceptions import TimeoutException, WebDriverException
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError as error:
    print(f"play_page.py: python's selenium is not installed ({error}); pip install selenium", file=sys.stderr)
    sys.exit(3)

POLL_SECONDS = 0.05  # how often a wait looks at the page again
REFRESH_SECONDS = 0.2  # how often the lobby asks the server again for a list that has yet to show a game
VISIT_ATTEMPTS = 5  # plain HTTP visits greeted as silent connections before the priming visit fails
STEP_SECONDS = 25  # the longest any one step may take (a flip, a reveal, a reload), within the overall deadline;
# a bound on a failure only: with the browsers starved of the cores, a flip once did not settle within 10 s
PHONE = (360, 740)
DESKTOP = (1280, 900)


class Failure(Exception):
    pass


class Deadline:
    def __init__(self, seconds):
        self.end = time.monotonic() + seconds

    def left(self, cap=STEP_SECONDS):
        left = self.end - time.monotonic()
        if left <= 0:
            raise Failure("out of time for the whole run")
        return min(cap, left)


def say(text):
    print(text, flush=True)


# What the page shows, read in one script call: the view, the game's hooks and every card.
READ_PAGE = """
const game = document.getElementById("game");
const result = document.getElementById("result");
return {
  view: document.body.dataset.view,
  seat: game.dataset.seat || null,
  phase: game.dataset.phase || null,
  mine: document.getElementById("board").classList.contains("mine"),
  status: document.getElementById("status-text").textContent,
  result: result.hidden ? null : { kind: result.dataset.result, text: result.textContent },
  notice: document.getElementById("notice").textContent,
  noticeOk: document.getElementById("notice").classList.contains("ok"),
  boardTop: document.getElementById("board").getBoundingClientRect().top + scrollY,
  // The heights above the board, to say what moved it.
  above: Object.fromEntries(["notice", "players", "status", "result", "controls"].map((id) => [id, Math.round(document.getElementById(id).getBoundingClientRect().height)])),
  clocks: [document.getElementById("turn-clock").textContent, document.getElementById("game-clock").textContent],
  events: [...document.querySelectorAll("#events li")].map((li) => li.textContent),
  players: [...document.querySelectorAll("#players .player")].map((p) => ({
    text: p.firstChild.textContent, score: p.querySelector(".score") && Number(p.querySelector(".score").textContent) })),
  cards: [...document.querySelectorAll("#board .card")].map((card) => {
    const inner = card.querySelector(".inner");
    const front = card.querySelector(".front");
    return { index: Number(card.dataset.card), state: card.dataset.state, face: card.querySelector(".face").textContent,
      moving: inner.getAnimations().length > 0, transform: getComputedStyle(inner).transform,
      frontColor: getComputedStyle(front).color, miss: card.classList.contains("miss"),
      unfound: card.classList.contains("unfound"), frontBorder: getComputedStyle(front).borderTopStyle,
      faceOpacity: Number(getComputedStyle(card.querySelector(".face")).opacity), label: card.getAttribute("aria-label") };
  }),
};
"""


# Records, in the page, every change of a card's data-state and every flip animation that ran to its end,
# so a card turned back and taken again by the bot between two looks is still seen to have turned back.
TRACE = """
const board = document.getElementById("board");
window.pairsTrace = { states: {}, ends: {}, events: [] };
new MutationObserver((records) => {
  for (const record of records) for (const node of record.addedNodes) pairsTrace.events.push(node.textContent);
}).observe(document.getElementById("events"), { childList: true });
new MutationObserver((records) => {
  for (const record of records) {
    const card = record.target, states = (pairsTrace.states[card.dataset.card] ||= []);
    if (states[states.length - 1] !== card.dataset.state) states.push(card.dataset.state);
  }
}).observe(board, { attributes: true, attributeFilter: ["data-state"], subtree: true });
board.addEventListener("transitionend", (event) => {
  if (!event.target.classList.contains("inner")) return;
  const card = event.target.closest(".card");
  (pairsTrace.ends[card.dataset.card] ||= []).push([card.dataset.state, getComputedStyle(event.target).transform]);
});
"""


def visited_before(url):
    """Loads the server's page once with a plain HTTP request from this machine, as any browser that has been
    there before did. protocol.md ("Which protocol a connection speaks") leaves one case open by design: a
    browser's very first connection from an address the server does not remember, silent for more than
    100 ms after connecting, reads `welcome` and that one load fails. A browser starved of CPU (both cores
    busy) can be that slow, so a scenario about something else starts from a remembered address; the first
    visit itself is tested where it is the point (the reloads scenario's visit to a stopped server, and the
    welcome waits on the manual clock in TransportClockTests)."""
    parts = urllib.parse.urlsplit(url)
    # This request is itself such a first visit: starved between its connect and its send for over 100 ms, it
    # is greeted with `welcome` (the open case above), and is made again on a new connection.
    for attempt in range(1, VISIT_ATTEMPTS + 1):
        try:
            with urllib.request.urlopen(f"{parts.scheme}://{parts.netloc}/", timeout=STEP_SECONDS) as response:
                if b"<html" not in response.read(4096).lower():
                    raise Failure(f"{parts.netloc} did not serve an HTML page at /")
                return
        except http.client.BadStatusLine as greeted:
            if '"type":"welcome"' not in str(greeted) or attempt == VISIT_ATTEMPTS:
                raise Failure(f"{parts.netloc} answered a plain HTTP request with {str(greeted)[:200]!r}, {attempt} times")
            say(f"note: the visit to {parts.netloc} was greeted with welcome (sent more than 100 ms after connecting); again")


def load(driver, url=None, first_visit=False):
    """Opens url (or reloads) and starts the trace. Unless `first_visit`, the address is one the server
    remembers loading its page (`visited_before`)."""
    if url is None:
        driver.refresh()
    else:
        if not first_visit:
            visited_before(url)
        driver.get(url)
    if not driver.execute_script('return document.getElementById("board") !== null'):
        text = driver.execute_script("return document.documentElement.innerText").strip()[:200]
        why = ""
        if "ERR_INVALID_HTTP_RESPONSE" in text:
            # Chromium opens sockets ahead of need (preconnect) and may send its request on one much later:
            # a server that greets a silent connection with the line protocol's welcome breaks that request.
            why = (" (the server answered with something other than HTTP: a server without the page, or one that greeted"
                   " with its welcome line a connection the browser had opened ahead of its request)")
        raise Failure(f"{url or 'the reload'} did not serve the Pairs page; it showed {text!r}{why}")
    driver.execute_script(TRACE)


# While a driver is being watched (`watch_layout`), where its board's top was and what its clocks said on
# every look during play: the board must not move between turns, and a clock is words every font has.
WATCHED = {"driver": None, "tops": set(), "clocks": set(), "above": {}}


def watch_layout(driver):
    WATCHED.update(driver=driver, tops=set(), clocks=set(), above={})


def page(driver):
    shown = driver.execute_script(READ_PAGE)
    if driver is WATCHED["driver"] and shown["view"] == "game" and shown["phase"] in ("playing", "reveal"):
        WATCHED["tops"].add(round(shown["boardTop"], 1))
        WATCHED["above"][round(shown["boardTop"], 1)] = (shown["above"], shown["status"])
        WATCHED["clocks"].update(text for text in shown["clocks"] if text)
    return shown


CLOCK = re.compile(r"^(turn|game) \d+:\d\d$")


def wait_for(driver, deadline, what, condition, cap=STEP_SECONDS):
    """Waits until condition(page) is truthy and returns it; fails naming `what` and the page's state."""
    last = {}

    def check(_):
        last["page"] = page(driver)
        return condition(last["page"])

    try:
        return WebDriverWait(driver, deadline.left(cap), poll_frequency=POLL_SECONDS).until(check)
    except TimeoutException:
        shown = last.get("page") or {}
        brief = {key: shown.get(key) for key in ("view", "seat", "phase", "status", "result", "notice")}
        brief["cards"] = [(c["state"], c["face"]) for c in shown.get("cards", [])]
        brief["events"] = shown.get("events", [])[-4:]
        raise Failure(f"timed out waiting for {what}; the page showed {brief}")


def facing(transform):
    """Which side of a card its rotation shows: "back" (no turn) or "front" (turned 180 degrees)."""
    if transform in ("none", ""):
        return "back"
    first = float(transform[transform.index("(") + 1:].split(",")[0])
    return "front" if first < -0.5 else "back" if first > 0.5 else "edge"


def settled(card):
    """A card whose flip animation has ended, showing the side its data-state says."""
    want = "back" if card["state"] == "down" else "front"
    return not card["moving"] and facing(card["transform"]) == want


def browser(args, size, phone, console=False, flags=()):
    """A headless Chromium emulating `size`; with `console`, it keeps the page's console for
    `get_log("browser")`. The other pages' drivers (dashboard_page.py, report_page.py) start theirs here too."""
    options = Options()
    options.binary_location = args.chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-extensions", "--mute-audio", "--hide-scrollbars", "--force-color-profile=srgb",
                 f"--window-size={size[0]},{size[1]}", *flags):
        options.add_argument(flag)
    if console:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=args.chromedriver))
    driver.set_page_load_timeout(STEP_SECONDS)
    driver.set_script_timeout(STEP_SECONDS)
    emulate(driver, size, phone)
    return driver


def emulate(driver, size, phone, dark=False):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": phone})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": phone, "maxTouchPoints": 5 if phone else 1})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})


def screenshot_failure(out, **drivers):
    """Saves what each browser shows as failure-LABEL.png, for the browsers there are; a browser that is what
    failed may not answer, and that must not hide the failure itself."""
    for label, driver in drivers.items():
        if driver is not None:
            try:
                screenshot(driver, out, f"failure-{label}.png")
            except Exception:
                pass


def quit_browsers(*drivers):
    """Ends every browser there is, whatever state it is in."""
    for driver in drivers:
        if driver is not None:
            try:
                driver.quit()
            except Exception:
                pass


def screenshot(driver, out, name):
    """The whole page, not just the window: a phone's finished game is taller than its screen."""
    width, height = driver.execute_script(
        "return [document.documentElement.clientWidth, Math.max(document.documentElement.scrollHeight, innerHeight)]")
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                             "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
    path = os.path.join(out, name)
    with open(path, "wb") as file:
        file.write(base64.b64decode(shot["data"]))
    say(f"screenshot: {path} ({width}x{height})")


class Player:
    """Plays a seat through the page: remembers every face it has seen, and turns its flips with a tap, a
    mouse click or the keyboard in turn, so all three ways of playing are used."""

    WAYS = ("tap", "click", "keys")

    def __init__(self, driver, deadline, playing_cards=False, on_mismatch=None):
        self.driver = driver
        self.on_mismatch = on_mismatch  # called once, with the mismatch on show
        self.deadline = deadline
        self.playing_cards = playing_cards
        self.known = {}  # card index -> face, for this game
        self.colours = {}  # "red" or "black" -> the colours their faces were drawn in
        self.flips = 0
        self.mismatches_seen = 0

    def learn(self, shown):
        for card in shown["cards"]:
            if card["state"] != "down" and card["face"]:
                self.known[card["index"]] = card["face"]
                suit = "red" if card["face"][-1] in "♥♦" else "black" if card["face"][-1] in "♠♣" else None
                if suit:
                    self.colours.setdefault(suit, set()).add(card["frontColor"])

    def matches(self, a, b):
        """Whether two faces make a set: the same word, or playing cards of one rank or one suit."""
        if not self.playing_cards:
            return a == b
        return a[:-1] == b[:-1] or a[-1] == b[-1]

    def flip(self, index):
        way = self.WAYS[self.flips % len(self.WAYS)]
        self.flips += 1
        element = self.driver.find_element(By.CSS_SELECTOR, f'#board .card[data-card="{index}"]')
        self.driver.execute_script("pairsTrace.states[arguments[0]] = ['down']; pairsTrace.ends[arguments[0]] = []", index)
        if way == "tap":
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
            x, y = self.driver.execute_script(
                "const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]", element)
            for kind, points in (("touchStart", [{"x": x, "y": y}]), ("touchEnd", [])):
                self.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
        elif way == "click":
            element.click()
        else:
            count = len(page(self.driver)["cards"])
            keys = str(index)
            # The page flips as soon as no longer number starts with the digits typed, else on Enter.
            if index * 10 < count:
                keys += "\ue007"
            ActionChains(self.driver).send_keys(keys).perform()
        return way

    def choose(self, shown, first=None):
        down = [c["index"] for c in shown["cards"] if c["state"] == "down"]
        known = [i for i in down if i in self.known]
        if first is not None:
            partner = [i for i in known if i != first and self.matches(self.known[first], self.known[i])]
            if partner:
                return partner[0]
        else:
            pairs = [a for a in known for b in known if a != b and self.matches(self.known[a], self.known[b])]
            if pairs:
                return pairs[0]
        unknown = [i for i in down if i not in self.known and i != first]
        return (unknown or [i for i in down if i != first])[0]

    def take_turn(self):
        """Flips two cards and checks what the page shows of them; returns False if the game ended first."""
        shown = wait_for(self.driver, self.deadline, "my turn with every unmatched card face down",
                         lambda p: p if p["phase"] == "over" or (p["mine"] and p["phase"] == "playing"
                                                                  and not any(c["state"] == "up" for c in p["cards"])) else None)
        if shown["phase"] == "over":
            return False
        self.learn(shown)
        turned = []
        for _ in range(2):
            index = self.choose(shown, turned[0] if turned else None)
            way = self.flip(index)
            shown = wait_for(self.driver, self.deadline, f"card {index} ({way}) to turn face up and end its animation",
                             lambda p: p if p["cards"][index]["state"] != "down" and settled(p["cards"][index]) else None)
            card = shown["cards"][index]
            if not card["face"]:
                raise Failure(f"card {index} is {card['state']} but shows no face")
            self.learn(shown)
            turned.append(index)
            if shown["phase"] == "over":
                return False
        states = [shown["cards"][i]["state"] for i in turned]
        if states == ["up", "up"]:
            self.check_mismatch(shown, turned)
        elif states != ["matched", "matched"]:
            raise Failure(f"cards {turned} ended a turn as {states}")
        return True

    def check_mismatch(self, shown, turned):
        """A mismatch is shown (both faces up, marked as no match) and then hidden (both turn back)."""
        if shown["phase"] != "reveal" or not all(shown["cards"][i]["miss"] for i in turned):
            raise Failure(f"a mismatch of {turned} is not on show as one: phase {shown['phase']}")
        if self.on_mismatch:
            self.on_mismatch()
            self.on_mismatch = None
        # Turned back: each card went up and then down, and its animation back ended face down, unless
        # the other player took the card up again before it could.
        def turned_back(shown):
            trace = self.driver.execute_script("return pairsTrace")
            for i in turned:
                if trace["states"].get(str(i), [])[:3] != ["down", "up", "down"]:
                    return False
                ended_down = any(state == "down" and facing(transform) == "back" for state, transform in trace["ends"].get(str(i), []))
                if not ended_down and shown["cards"][i]["state"] == "down":
                    return False
            return True

        wait_for(self.driver, self.deadline, f"the mismatched cards {turned} to turn back face down", turned_back)
        wait_for(self.driver, self.deadline, "the turned-back faces to be forgotten",
                 lambda p: all(p["cards"][i]["face"] == "" or p["cards"][i]["state"] != "down" for i in turned))
        said = f"Cards {turned[0]}, {turned[1]} turned back"
        if said not in self.driver.execute_script("return pairsTrace.events"):
            raise Failure(f"no event says \"{said}\"")
        self.mismatches_seen += 1


def finished(shown):
    return shown if shown["phase"] == "over" and shown["result"] else None


def play_a_game(args, deadline, phone, desktop):
    """The phone plays the bot in ROOM, the desktop watches; then the phone plays a solo game of playing cards."""
    base = args.url.rstrip("/")

    # The lobby, as both see it first.
    for driver, name in ((phone, "lobby-360.png"), (desktop, "lobby-1280.png")):
        load(driver, base + "/")
        wait_for(driver, deadline, "the lobby", lambda p: p["view"] == "lobby")
        screenshot(driver, args.out, name)
    fields = phone.execute_script("return [...document.querySelectorAll('#rules-fields [id^=rule-]')].map((f) => f.id)")
    say(f"ok: the lobby shows the rule fields {fields}")

    # The phone joins the bot's room by URL, with a name that needs escaping.
    name = args.name
    load(phone, f"{base}/?room={urllib.parse.quote(args.room)}&name={urllib.parse.quote(name)}")
    shown = wait_for(phone, deadline, "the game to start in the room",
                     lambda p: p if p["view"] == "game" and p["phase"] in ("playing", "reveal") else None)
    seat = shown["seat"]
    if seat not in ("0", "1") or not any(p["text"].endswith(name + " (you)") for p in shown["players"]):
        raise Failure(f"joined as seat {seat} with players {shown['players']}: the name is not shown as text")
    if phone.execute_script("return document.querySelectorAll('b').length") != 0:
        raise Failure("a name from the server became markup")
    say(f"ok: joined {args.room} by URL as seat {seat}, the name shown as text")

    load(desktop, f"{base}/?watch={urllib.parse.quote(args.room)}")
    watching = wait_for(desktop, deadline, "the watcher's board",
                        lambda p: p if p["view"] == "game" and p["seat"] == "watching" and p["cards"] else None)
    say(f"ok: the desktop watches, {len(watching['cards'])} cards")

    player = Player(phone, deadline, on_mismatch=lambda: screenshot(phone, args.out, "reveal-360.png"))
    watch_layout(phone)
    reloaded = False
    while True:
        if not player.take_turn():
            break
        if not reloaded and player.mismatches_seen > 0:
            load(phone)
            back = wait_for(phone, deadline, "the reloaded page to take its seat back",
                            lambda p: p if p["view"] == "game" and p["seat"] == seat and p["phase"] else None)
            wait_for(phone, deadline, "the page to say it came back", lambda p: "You came back" in p["events"])
            if not any(p["text"].endswith(name + " (you)") for p in back["players"]):
                raise Failure(f"after the reload the page is not {name}'s seat: {back['players']}")
            reloaded = True
            say(f"ok: reloaded in the middle of the game and resumed seat {seat}")
    if player.mismatches_seen == 0:
        raise Failure("the phone made no mismatch, so none was seen shown and hidden")
    if not reloaded:
        raise Failure("the game ended before the page could be reloaded")
    if player.flips < len(Player.WAYS):
        raise Failure(f"the phone flipped {player.flips} cards, so not every way of flipping ({', '.join(Player.WAYS)}) was used")
    say(f"ok: {player.flips} flips by tap, click and keyboard; {player.mismatches_seen} mismatches shown then hidden")
    tops, clocks, above = WATCHED["tops"], WATCHED["clocks"], WATCHED["above"]
    watch_layout(None)
    if len(tops) != 1:
        raise Failure(f"the phone's board moved between turns: its top was at {sorted(tops)} px; above it, at each: {above}")
    if not clocks or not all(CLOCK.match(text) for text in clocks):
        raise Failure(f"the clocks said {sorted(clocks)}, not words and minutes every font shows")
    say(f"ok: the phone's board stayed at {tops.pop()} px through every turn; the clocks said e.g. {sorted(clocks)[0]!r}")

    done = wait_for(phone, deadline, "the result, every card matched and still",
                    lambda p: finished(p) if all(c["state"] == "matched" and c["face"] and settled(c) for c in p["cards"]) else None)
    mine = done["players"][int(seat)]["score"]
    theirs = done["players"][1 - int(seat)]["score"]
    expected = "won" if mine > theirs else "lost" if mine < theirs else "draw"
    if done["result"]["kind"] != expected or f"{mine} – {theirs}" not in done["result"]["text"]:
        raise Failure(f"scores {mine} to {theirs} but the result says {done['result']}")
    say(f"ok: the phone shows \"{done['result']['text']}\"")

    seen = wait_for(desktop, deadline, "the watcher's result", finished)
    if [(c["state"], c["face"]) for c in seen["cards"]] != [(c["state"], c["face"]) for c in done["cards"]]:
        raise Failure("the watcher's board differs from the player's")
    winner = {"won": name, "lost": args.opponent, "draw": None}[expected]
    said = f"{winner} won {max(mine, theirs)} – {min(mine, theirs)}" if winner else f"Draw {mine} – {theirs}"
    if seen["result"]["kind"] != ("over" if winner else "draw") or seen["result"]["text"] != said:
        raise Failure(f"the watcher's result says {seen['result']}")
    desktop.find_element(By.CSS_SELECTOR, '#board .card[data-card="0"]').click()
    wait_for(desktop, deadline, "a watcher's flip to be refused", lambda p: "watching" in p["notice"])
    say(f"ok: the watcher saw the same board and \"{seen['result']['text']}\"")

    # Chat, with markup in it: both see it, as text.
    said = "<i>gg</i> & ♥"
    box = phone.find_element(By.ID, "chat-input")
    box.send_keys(said)
    phone.find_element(By.CSS_SELECTOR, "#chat-form button").click()
    for driver in (phone, desktop):
        wait_for(driver, deadline, "the chat line", lambda p: said in driver.find_element(By.ID, "chat-log").text)
        if driver.execute_script("return document.querySelectorAll('#chat-log i').length") != 0:
            raise Failure("a chat line became markup")
    say("ok: a chat line with markup in it reached both pages as text")

    screenshot(phone, args.out, "game-360.png")
    emulate(phone, PHONE, phone=True, dark=True)
    screenshot(phone, args.out, "game-360-dark.png")
    emulate(phone, DESKTOP, phone=False)
    screenshot(phone, args.out, "game-1280.png")
    screenshot(desktop, args.out, "watch-1280.png")
    print(f"result: {expected} {mine} {theirs}", flush=True)

    # Back to the lobby, from the bottom of the game's page: the lobby starts at its top.
    emulate(phone, PHONE, phone=True)
    scrolled = phone.execute_script("scrollTo(0, document.documentElement.scrollHeight); return scrollY")
    if scrolled <= 0:
        raise Failure("the phone's game page is not taller than its screen, so leaving from its bottom is not tested")
    phone.find_element(By.ID, "leave").click()
    wait_for(phone, deadline, "the lobby after leaving", lambda p: p["view"] == "lobby")
    top = phone.execute_script('return [scrollY, document.querySelector("header").getBoundingClientRect().top]')
    if top[0] != 0 or top[1] < 0:
        raise Failure(f"after leaving from {scrolled} px down, the lobby is at scrollY {top[0]}, its header at {top[1]} px")
    say(f"ok: left the room for the lobby, shown from its top (the game was scrolled {scrolled} px)")


def solo_cards(args, deadline, phone):
    """The phone opens the lobby, chooses the rules of a solo game of playing cards in its form, and plays it."""
    load(phone, f"{args.url.rstrip('/')}/?name={urllib.parse.quote(args.name)}")
    wait_for(phone, deadline, "the lobby", lambda p: p["view"] == "lobby")
    phone.execute_script("""
        const set = (id, value) => { const f = document.getElementById(id); f.value = value; f.dispatchEvent(new Event("change")); };
        document.getElementById("rules").open = true;
        set("rule-deck", "cards"); set("rule-pairs", "3"); set("rule-game_seconds", "60");
        set("rule-scoring", "matchismo"); set("rule-turn_seconds", "0");""")
    screenshot(phone, args.out, "rules-360.png")
    phone.find_element(By.ID, "solo").click()
    shown = wait_for(phone, deadline, "a solo game of playing cards",
                     lambda p: p if p["view"] == "game" and p["phase"] == "playing" and len(p["players"]) == 1 else None)
    rules = phone.find_element(By.ID, "rules-line").text
    if "solo" not in rules or "playing cards" not in rules or "Matchismo" not in rules:
        raise Failure(f"the solo room's rules read {rules!r}")
    clock = phone.find_element(By.ID, "game-clock").text
    if "game" not in clock:
        raise Failure(f"no game clock shown: {clock!r}")
    solo = Player(phone, deadline, playing_cards=True)
    while solo.take_turn():
        pass
    done = wait_for(phone, deadline, "the solo result", finished)
    solo.learn(done)
    text = done["result"]["text"]
    if not (text.startswith("Cleared in 0:") or text.startswith("No set left") or text.startswith("Time's up")):
        raise Failure(f"the solo result says {text!r}")
    say(f"ok: a solo game of playing cards ended: \"{text}\"")
    red, black = solo.colours.get("red", set()), solo.colours.get("black", set())
    if len(red) > 1 or len(black) > 1 or red & black:
        raise Failure(f"red suits were drawn in {red} and black ones in {black}")
    say(f"ok: red suits in {red or 'no card seen'}, black ones in {black or 'no card seen'}")
    screenshot(phone, args.out, "solo-cards-360.png")
    time_up_shows_faces(args, deadline, phone)


# Records, in the page, the phase and how many cards show a face never found after every change of a card's
# classes: the next game's first state clears them, however briefly that game is on show.
UNFOUND_TRACE = """
window.pairsUnfound = [];
new MutationObserver(() => {
  pairsUnfound.push([document.getElementById("game").dataset.phase, document.querySelectorAll("#board .card.unfound").length]);
}).observe(document.getElementById("board"), { attributes: true, attributeFilter: ["class"], subtree: true });
"""


def time_up_shows_faces(args, deadline, phone):
    """A solo game of two pairs left to run out of time: every card stays face down, and once time is up each
    shows the face nobody found, turned over, dimmed and in no player's colour, until the next game starts."""
    phone.find_element(By.ID, "leave").click()
    wait_for(phone, deadline, "the lobby after leaving the solo game", lambda p: p["view"] == "lobby")
    phone.execute_script("""
        const set = (id, value) => { const f = document.getElementById(id); f.value = value; f.dispatchEvent(new Event("change")); };
        set("rule-deck", "words"); set("rule-scoring", "classic"); set("rule-pairs", "2"); set("rule-game_seconds", "3");""")
    phone.find_element(By.ID, "solo").click()
    # The clock is short: the game may be over by the first look.
    wait_for(phone, deadline, "a solo game of two pairs of words",
             lambda p: p if p["view"] == "game" and len(p["players"]) == 1 and len(p["cards"]) == 4
             and p["phase"] in ("playing", "over") else None)
    done = wait_for(phone, deadline, "time to run out", lambda p: p if finished(p) else None)
    if not done["result"]["text"].startswith("Time's up"):
        raise Failure(f"the solo game left alone ended with {done['result']['text']!r}")

    def faces_shown(p):
        cards = p["cards"]
        return p if all(c["state"] == "down" and c["unfound"] and c["face"] and not c["moving"]
                        and facing(c["transform"]) == "front" for c in cards) else None

    shown = wait_for(phone, deadline, "every card nobody found to turn over and show its face", faces_shown)
    faces = [c["face"] for c in shown["cards"]]
    if len(set(faces)) != 2 or any(faces.count(face) != 2 for face in faces):
        raise Failure(f"the faces never found are not two pairs: {faces}")
    for card in shown["cards"]:
        # Matched cards have a dashed border in their taker's colour and faces at .75: these are told apart.
        if card["frontBorder"] != "dotted" or not card["faceOpacity"] < 0.75 or "never found" not in card["label"]:
            raise Failure(f"card {card['index']} does not look never found: border {card['frontBorder']},"
                          f" face opacity {card['faceOpacity']}, label {card['label']!r}")
    say(f"ok: after time's up the faces never found are shown, dimmed: {faces}")
    screenshot(phone, args.out, "solo-time-up-360.png")
    phone.execute_script(UNFOUND_TRACE)
    phone.find_element(By.ID, "rematch").click()
    wait_for(phone, deadline, "the next game's first state to turn the faces never found back over",
             lambda p: any(phase == "playing" and count == 0 for phase, count in phone.execute_script("return pairsUnfound")))
    say("ok: the faces never found stay until the next game starts")


def names_and_ladder(args, deadline, phone, desktop):
    """On a server that keeps games: the desktop claims a name with a password; the phone, told that name by
    its URL, is asked for the password, refused a wrong one and let in with the right one; the desktop claims
    another name, the two play each other, and the lobby's ladder and last games show them."""
    base = args.url.rstrip("/")
    name, password = args.name, "correct horse"
    load(desktop, base + "/")
    wait_for(desktop, deadline, "the ladder of a server that keeps games",
             lambda p: p["view"] == "lobby" and desktop.execute_script('return !document.getElementById("ladder").hidden'))
    claim(desktop, deadline, name, password)
    say(f"ok: the desktop claimed {name!r} with a password")

    load(phone, f"{base}/?name={urllib.parse.quote(name)}")
    wait_for(phone, deadline, "the phone to be asked for the password",
             lambda p: not password_hidden(phone) and "belongs to someone" in p["notice"])
    phone.find_element(By.ID, "password").send_keys("wrong")
    phone.find_element(By.ID, "name-save").click()
    wait_for(phone, deadline, "a wrong password to be refused", lambda p: "not the password" in p["notice"])
    phone.find_element(By.ID, "password").clear()
    phone.find_element(By.ID, "password").send_keys(password)
    phone.find_element(By.ID, "name-save").click()
    taken = wait_for(phone, deadline, "the right password to be taken and said so",
                     lambda p: p if password_hidden(phone) and "Password accepted" in p["notice"] else None)
    if "not the password" in taken["notice"] or not taken["noticeOk"]:
        raise Failure(f"after the right password the page says {taken['notice']!r}")
    say(f"ok: the phone was asked for the password, refused a wrong one and took the right one: {taken['notice']!r}")

    # The desktop takes another name of its own, and the two play each other (a rated game), each page on
    # its own turns, on a board of two pairs.
    claim(desktop, deadline, "dog", password)
    say("ok: the desktop claimed 'dog' instead")
    desktop.execute_script("""
        const field = document.getElementById("rule-pairs"); field.value = "2"; field.dispatchEvent(new Event("change"));""")
    desktop.find_element(By.ID, "room").send_keys("den")
    desktop.find_element(By.CSS_SELECTOR, "#room-form button").click()
    wait_for(desktop, deadline, "the desktop waiting in den", lambda p: p["view"] == "game" and p["phase"] == "waiting")
    phone.find_element(By.ID, "room").send_keys("den")
    phone.find_element(By.CSS_SELECTOR, "#room-form button").click()
    players = {phone: Player(phone, deadline), desktop: Player(desktop, deadline)}
    while True:
        shown = {driver: page(driver) for driver in players}
        if all(finished(p) for p in shown.values()):
            break
        mover = next((d for d, p in shown.items() if p["mine"] and p["phase"] == "playing"), None)
        if mover is not None:
            players[mover].take_turn()
            # Both pages show the one board: what the mover saw, the other player saw too, so neither turns
            # up again a pair of faces the other has already shown.
            for other in players.values():
                other.known.update(players[mover].known)
        else:
            time.sleep(POLL_SECONDS)
            deadline.left()
    results = {label: page(driver)["result"] for driver, label in ((phone, "phone"), (desktop, "desktop"))}
    if {r["kind"] for r in results.values()} not in ({"won", "lost"}, {"draw"}):
        raise Failure(f"the two players' results do not agree: {results}")
    say(f"ok: {name} and dog played each other: {results}")
    # The desktop leaves first: the phone keeps the game's result on screen, though a seat is now free.
    desktop.find_element(By.ID, "leave").click()
    alone = wait_for(phone, deadline, "the phone to see the desktop leave", lambda p: p if p["phase"] == "waiting" else None)
    if alone["result"] != results["phone"]:
        raise Failure(f"once the opponent left, the phone's result went from {results['phone']} to {alone['result']}")
    say(f"ok: once the opponent left, the phone still shows {alone['result']['text']!r}")
    phone.find_element(By.ID, "leave").click()
    winner = {"won": name, "lost": "dog"}.get(results["phone"]["kind"])
    outcome = f"{winner} won" if winner else "draw"
    for driver in players:
        until_listed(driver, deadline, "games", outcome)
    say(f"ok: the last games say {outcome!r}")
    for driver in players:
        until_listed(driver, deadline, "games", "dog")
        until_listed(driver, deadline, "leaders", "dog")
    say(f"ok: the lobby's ladder shows {phone.find_element(By.ID, 'leaders').text!r} and {phone.find_element(By.ID, 'games').text!r}")
    screenshot(phone, args.out, "ladder-360.png")
    screenshot(desktop, args.out, "ladder-1280.png")


def claim(driver, deadline, name, password):
    """Claims `name` with `password` through the lobby's name form."""
    field = driver.find_element(By.ID, "name")
    field.clear()
    field.send_keys(name)
    driver.find_element(By.ID, "password-toggle").click()
    secret = driver.find_element(By.ID, "password")
    secret.clear()
    secret.send_keys(password)
    driver.find_element(By.ID, "name-save").click()
    wait_for(driver, deadline, f"the claim of {name} to be accepted and said so",
             lambda p: password_hidden(driver) and p["noticeOk"] and f"the name {name} is yours" in p["notice"])


def until_listed(driver, deadline, list_id, text):
    """Waits for `text` in the lobby's list `list_id`, asking the server again (Refresh) every REFRESH_SECONDS:
    a finished game is stored off the rooms' queue, so the first answer may come before it."""
    while text not in driver.find_element(By.ID, list_id).text:
        deadline.left()
        driver.find_element(By.ID, "refresh").click()
        time.sleep(REFRESH_SECONDS)


def reloads(args, deadline, desktop):
    """Reloads after idle times, in the lobby and in a game, and many in a row: each must load the page."""
    base = args.url.rstrip("/")
    name = args.name
    # The first visit, while the server is stopped: the browser's request waits in the socket, and the
    # server, once running again, must read it as HTTP however late it is to look.
    if args.server_pid:
        os.kill(args.server_pid, signal.SIGSTOP)
        resume = threading.Timer(1.5, lambda: os.kill(args.server_pid, signal.SIGCONT))
        resume.start()
        try:
            load(desktop, f"{base}/?name={urllib.parse.quote(name)}", first_visit=True)
        finally:
            resume.join()
        wait_for(desktop, deadline, "the lobby after a first visit to a stopped server", lambda p: p["view"] == "lobby")
        say("ok: a first visit while the server was stopped loaded the page")
    else:
        load(desktop, f"{base}/?name={urllib.parse.quote(name)}")
        wait_for(desktop, deadline, "the lobby", lambda p: p["view"] == "lobby")
    for idle in args.idle:
        time.sleep(idle)  # the idle time is what is tested: the browser's spare sockets age meanwhile
        load(desktop)
        wait_for(desktop, deadline, f"the lobby after a reload {idle} s idle", lambda p: p["view"] == "lobby")
        say(f"ok: reloaded the lobby after {idle} s idle")

    load(desktop, f"{base}/?room={urllib.parse.quote(args.room)}&name={urllib.parse.quote(name)}")
    shown = wait_for(desktop, deadline, "the game to start in the room",
                     lambda p: p if p["view"] == "game" and p["phase"] in ("playing", "reveal") else None)
    seat = shown["seat"]

    def take_seat_back(what):
        back = wait_for(desktop, deadline, f"the seat back {what}",
                        lambda p: p if p["view"] == "game" and p["seat"] == seat and "You came back" in p["events"] else None)
        if not any(p["text"].endswith(name + " (you)") for p in back["players"]):
            raise Failure(f"{what} the page is not {name}'s seat: {back['players']}")

    for idle in args.idle:
        time.sleep(idle)
        load(desktop)
        take_seat_back(f"after a reload {idle} s idle")
        say(f"ok: reloaded the game after {idle} s idle and took seat {seat} back")
    for count in range(args.reloads):
        load(desktop)
        take_seat_back(f"after reload {count + 1} in a row")
    say(f"ok: {args.reloads} reloads in a row, each taking seat {seat} back")
    if not args.pairs:
        return

    # The server restarts mid-game: the page says the seat and the game are lost, and keeps saying it.
    game = desktop.execute_script("return S.state.game")
    port = urllib.parse.urlparse(base).port
    os.kill(args.server_pid, signal.SIGTERM)
    while True:
        deadline.left()
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            time.sleep(POLL_SECONDS)
        except OSError:
            break
    server = subprocess.Popen([args.pairs, "serve", "--host", "127.0.0.1", "--port", str(port), "--data", "none",
                               "--log-level", "warning"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    RESTARTED.append(server)
    if not server.stdout.readline().startswith("pairs listening on "):
        raise Failure("the restarted server did not listen")
    said = f"Your seat in room {args.room} and game {game} are lost: the server restarted"
    wait_for(desktop, deadline, "the page to say the seat was lost", lambda p: p["view"] == "lobby" and said in p["notice"], cap=30)
    time.sleep(7)  # longer than a passing notice stays: this one must not pass
    if said not in page(desktop)["notice"]:
        raise Failure(f"the lost seat's notice went away; it says {page(desktop)['notice']!r}")
    say(f"ok: after a restart mid-game the page says {page(desktop)['notice']!r}, and keeps saying it")
    screenshot(desktop, args.out, "restarted-1280.png")

    # A solo game of 8 pairs whose clock runs out: with its result shown, the whole board fits the window.
    desktop.execute_script("""
        const set = (id, value) => { const f = document.getElementById(id); f.value = value; f.dispatchEvent(new Event("change")); };
        set("rule-pairs", "8"); set("rule-game_seconds", "3");""")
    desktop.find_element(By.ID, "solo").click()
    wait_for(desktop, deadline, "the solo game's clock to run out", lambda p: p["result"] and "Time's up" in p["result"]["text"])
    if said in page(desktop)["notice"]:
        raise Failure("the lost seat's notice stayed on into the next game the player started")
    for size in ((1280, 720), (1366, 650), (1280, 800)):
        emulate(desktop, size, phone=False)
        fit = wait_for(desktop, deadline, f"the board to fit {size[0]}x{size[1]}", lambda p: board_fits(desktop))
        say(f"ok: at {size[0]}x{size[1]} the board of {fit['cards']} cards fits: {fit}")
        screenshot(desktop, args.out, f"solo-time-up-{size[0]}x{size[1]}.png")
    emulate(desktop, (390, 844), phone=True)
    fit = wait_for(desktop, deadline, "the board to fit 390x844", lambda p: board_fits(desktop))
    say(f"ok: at 390x844 the board fits: {fit}")
    screenshot(desktop, args.out, "solo-time-up-390.png")


# The restarted server of the reloads scenario, stopped at the end.
RESTARTED = []


def board_fits(driver):
    """The board's size against the window's: every card in view, and the board as big as the space allows
    (as wide as its column, or as tall as the window below its top). None until it fits."""
    fit = driver.execute_script("""
        const board = document.getElementById("board"), box = board.getBoundingClientRect();
        const column = board.parentElement.getBoundingClientRect();
        const last = board.lastElementChild.getBoundingClientRect();
        return { cards: board.children.length, bottom: Math.round(last.bottom), window: innerHeight, scrollY,
                 width: Math.round(box.width), column: Math.round(column.width) };""")
    fits = fit["scrollY"] == 0 and fit["bottom"] <= fit["window"]
    big = fit["width"] >= fit["column"] - 2 or fit["bottom"] >= fit["window"] - 40
    return fit if fits and big else None


def password_hidden(driver):
    return driver.execute_script('return document.getElementById("password-field").hidden')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", choices=["game", "solo", "names", "reloads"], default="game",
                        help="game: against the bot in ROOM (a server with --data none); solo: a solo game of playing cards;"
                             " names: claimed names and the ladder; reloads: reloads after idle times")
    parser.add_argument("--url", required=True, help="the server's page, http://HOST:PORT/")
    parser.add_argument("--room", help="the room the bot waits in (game)")
    parser.add_argument("--name", default="<b>ann</b>&amp;", help="the phone's player name (markup, to see it shown as text)")
    parser.add_argument("--opponent", help="the bot's name (game)")
    parser.add_argument("--idle", type=float, nargs="*", default=[0, 5, 20], help="idle times before each reload (reloads)")
    parser.add_argument("--reloads", type=int, default=20, help="reloads in a row (reloads)")
    parser.add_argument("--pairs", help="the pairs binary, to restart the server mid-game (reloads)")
    parser.add_argument("--server-pid", type=int, help="the server's process, stopped during the first visit (reloads)")
    parser.add_argument("--out", required=True, help="directory for the screenshots")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--seconds", type=float, default=75, help="the longest the whole run may take")
    args = parser.parse_args()
    if args.scenario in ("game", "reloads") and not (args.room and args.opponent):
        parser.error("the game and reloads scenarios need --room and --opponent")
    # A test that gives up on this script sends SIGTERM: quit the browsers (the finally below) on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    deadline = Deadline(args.seconds)
    os.makedirs(args.out, exist_ok=True)
    phone = desktop = None
    try:
        if args.scenario == "reloads":
            desktop = browser(args, DESKTOP, phone=False)
            say("ok: a headless browser")
            reloads(args, deadline, desktop)
            say("passed")
            return 0
        phone = browser(args, PHONE, phone=True)
        if args.scenario == "solo":
            say("ok: a headless browser")
            solo_cards(args, deadline, phone)
        else:
            desktop = browser(args, DESKTOP, phone=False)
            say("ok: two headless browsers")
            (play_a_game if args.scenario == "game" else names_and_ladder)(args, deadline, phone, desktop)
        say("passed")
        return 0
    except (Failure, WebDriverException) as error:
        if isinstance(error, Failure):
            print(f"play_page.py: {error}", file=sys.stderr)
        else:  # without the browser's own stack of addresses, which says nothing
            print(f"play_page.py: {type(error).__name__}: {error.msg}\n{''.join(traceback.format_tb(error.__traceback__))}", file=sys.stderr)
        screenshot_failure(args.out, phone=phone, desktop=desktop)
        return 1
    finally:
        quit_browsers(phone, desktop)
        for server in RESTARTED:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    sys.exit(main())

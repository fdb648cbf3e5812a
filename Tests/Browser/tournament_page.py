#!/usr/bin/env python3
"""Runs tournaments through the browser page in headless Chromium, driven by Selenium.

Run by Tests/PairsClientTests/BrowserTournamentTests.swift against a real `pairs serve` (--data none, a small
board), in one of two scenarios; in both, a raw TCP connection watching the tournament is the truth the
pages' standings are checked against.

swiss: a phone (390x844, touch) makes a Swiss of two rounds that starts by itself at four players, with a
player name that is markup (it must show as text), and enters it from the lobby's form; three `pairs bot
--tournament NAME` processes, started here, fill it. A raw TCP connection watches the tournament with
`tournament_watch` and keeps every `tournament` message (its lines put together), the truth the pages are
checked against. A "projector" browser (1920x1080, `?tournament=NAME&projector`) shows the standings beside
the round's games, each a tile whose live score, from a socket of its own watching that room, must equal
the phone's while it is the phone's turn.

The phone is seated by the server in each of its two games (the game screen names the tournament and the
round), and reloaded between them; it plays them to the end, goes back to the tournament view, and each time a game ends the standings of
both pages must come to equal the watcher's latest `tournament` message (every rank, name, score, game count,
Buchholz and Sonneborn-Berger). At the end all three bots must have exited 0 after two games each, and both
pages show the final standings. In round 2 the projector watches the other game from its tile and goes
back to the standings.

arena: the phone makes an arena of --minutes that it does not play in and that waits for its Start, and
turns the projector layout on and off with its button; the list shows the arena; Start with nobody in it and a second arena of the same name are refused in words; two bots
and a raw connection enter, the phone starts it, its clock counts down, the raw entrant pauses (greyed), and at the end the standings (score, games, streak) are
the watcher's and both bots exit 0. Before that, the phone watches a tournament that 48 raw connections
entered, whose messages come in several lines: its standings must be the watcher's.

Screenshots go to OUT: the lobby's form and the tournament at phone size, the game screen with its
tournament line, the projector layout, and the arena. Prints one line per check passed and "passed" at
the end; exits 1 with the reason on the first failure, and never waits longer than --seconds in all.
"""

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from play_page import Deadline, Failure, Player, browser, load, page, quit_browsers, say, screenshot, screenshot_failure, wait_for  # noqa: E402  (exits 3 without selenium)
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

PHONE = (390, 844)
PROJECTOR = (1920, 1080)
ROUNDS = 2
BOTS = 3
BIG_ENTRANTS = 48  # enough for a tournament message longer than a line (4096 bytes)
BOT_EXIT_SECONDS = 20  # how long the bots may take to exit once the tournament is over

# The tournament view as a page shows it, read in one script call.
READ_TOURNAMENT = """
const rows = [...document.querySelectorAll("#standings tr[data-name]")].map((tr) => ({
  name: tr.dataset.name, active: tr.dataset.active === "true", inactive: tr.classList.contains("inactive"),
  cells: [...tr.children].map((td) => td.textContent) }));
const column = (id) => document.getElementById(id).getBoundingClientRect();
return {
  view: document.body.dataset.view,
  layout: document.body.dataset.layout,
  title: document.getElementById("tour-title").textContent,
  status: document.getElementById("tour-status").textContent,
  clock: document.getElementById("tour-clock").textContent,
  me: document.getElementById("tour-me").textContent,
  notice: document.getElementById("notice").textContent,
  head: [...document.querySelectorAll("#standings-head th")].map((th) => th.textContent),
  rows,
  tiles: [...document.querySelectorAll("#pairings .pairing")].map((li) => ({ room: li.dataset.room,
    players: [...li.querySelectorAll(".side")].map((side) => side.firstChild.textContent),
    scores: [...li.querySelectorAll(".side .score")].map((score) => score.textContent) })),
  tourLine: document.getElementById("tour-line").hidden ? null : document.getElementById("tour-line").textContent,
  standingsBox: column("standings").toJSON(), pairingsBox: column("pairings").toJSON(),
  rootFont: parseFloat(getComputedStyle(document.documentElement).fontSize),
  scrollWidth: document.documentElement.scrollWidth, width: document.documentElement.clientWidth,
  markup: document.querySelectorAll("main b, main i").length,
};
"""


def tour(driver):
    return driver.execute_script(READ_TOURNAMENT)


def wait_tour(driver, deadline, what, condition, cap=30):
    """Waits until condition(tournament view) is truthy and returns it; fails naming `what` and the view."""
    until = time.monotonic() + deadline.left(cap)
    while True:
        shown = tour(driver)
        found = condition(shown)
        if found:
            return found
        deadline.left()
        if time.monotonic() > until:
            brief = {key: shown.get(key) for key in ("view", "title", "status", "clock", "me", "notice", "rows", "tiles", "tourLine")}
            raise Failure(f"timed out waiting for {what}; the page showed {brief}")
        time.sleep(0.05)


class Watcher:
    """A plain TCP connection that watches the tournament and keeps its `tournament` messages, whole."""

    def __init__(self, port, name):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.file = self.sock.makefile("r", encoding="utf-8")
        self.lock = threading.Lock()
        self.messages = []
        self.errors = []
        self.lines = 0  # the most lines one message came in
        # It speaks first: the server waits for a connection from an address that has loaded the page to say
        # which protocol it speaks (protocol.md, "Which protocol a connection speaks").
        self.sock.sendall((json.dumps({"type": "tournament_watch", "tournament": name, "id": "w"}) + "\n").encode())
        self.sock.settimeout(None)
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        part = None
        for line in self.file:
            message = json.loads(line)
            if message.get("type") == "error":
                with self.lock:
                    self.errors.append(message)
                continue
            if message.get("type") != "tournament":
                continue
            if part is None:
                part, lines = message, 1
            else:
                part["standings"] += message.get("standings", [])
                part["pairings"] += message.get("pairings", [])
                lines += 1
            if message.get("more"):
                continue
            with self.lock:
                self.messages.append(part)
                self.lines = max(self.lines, lines)
            part = None

    def latest(self):
        with self.lock:
            if self.errors:
                raise Failure(f"the watcher was refused: {self.errors}")
            return self.messages[-1] if self.messages else None

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def await_tournament(connection, name, deadline):
    """Reads lines from a raw connection until the tournament `name` is announced to it; an error is a failure."""
    pending = b""
    while True:
        connection.settimeout(max(0.1, deadline.left(30)))
        chunk = connection.recv(65536)
        if not chunk:
            raise Failure(f"the server closed the connection that made {name}")
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            message = json.loads(line)
            if message.get("type") == "error":
                raise Failure(f"making {name} was refused: {message}")
            if message.get("type") == "tournament" and message.get("name") == name:
                return


def same_standings(shown, message):
    """Whether the page's standings rows say what the message's standings say, row for row."""
    if message is None or len(shown["rows"]) != len(message["standings"]):
        return False
    swiss = message["format"] == "swiss"
    for row, standing in zip(shown["rows"], message["standings"]):
        cells = row["cells"]
        if swiss:
            want = [standing["rank"], standing["score"], standing["games"], standing.get("buchholz"), standing.get("sonneborn_berger")]
            got = [cells[0], cells[2], cells[3], cells[4], cells[5]] if len(cells) == 6 else None
        else:  # the streak, "3 (×2)" once it doubles
            want = [standing["rank"], standing["score"], standing["games"], standing["streak"]]
            got = [cells[0], cells[2], cells[3], cells[4].split(" ")[0]] if len(cells) == 5 else None
        if got is None or row["name"] != standing["name"] or row["active"] != standing["active"] or row["inactive"] == standing["active"]:
            return False
        if any(float(g) != float(w) for g, w in zip(got, want)):
            return False
        if not cells[1].startswith(standing["name"]):  # the name, as text
            return False
    return True


def standings_match(driver, deadline, watcher, what, when=lambda message: True):
    """Waits until the page's standings equal the watcher's latest message, one for which `when` holds."""
    def check(shown):
        message = watcher.latest()
        return (shown, message) if message is not None and when(message) and same_standings(shown, message) else None
    return wait_tour(driver, deadline, what, check)


def games_played(message):
    return sum(standing["games"] for standing in message["standings"])


# The scores the projector's tiles were seen to show, each equal to the phone's on one of its turns.
COMPARED = []


def watch_the_other_game(projector, deadline, mine):
    """The projector watches the round's other game from its tile, sees the tournament on the game screen,
    and goes back to the standings."""
    tile = wait_tour(projector, deadline, "the projector's tile of the other game of round 2",
                     lambda t: next((tile for tile in t["tiles"] if tile["room"] != mine), None) if "round 2" in t["clock"] else None)
    projector.find_element(By.CSS_SELECTOR, f'#pairings li[data-room="{tile["room"]}"] button').click()
    watching = wait_tour(projector, deadline, f"the projector watching {tile['room']}",
                         lambda t: t if t["view"] == "game" and t["tourLine"] else None)
    shown = page(projector)
    back = projector.find_element(By.ID, "leave")
    if shown["seat"] != "watching" or "round 2 of 2" not in watching["tourLine"] or back.text != "Back to the tournament":
        raise Failure(f"watching {tile['room']} shows seat {shown['seat']}, {watching['tourLine']!r} and a button {back.text!r}")
    back.click()
    wait_tour(projector, deadline, "the projector back on the standings", lambda t: t["view"] == "tournament" and t["layout"] == "projector")
    say(f"ok: the projector watched {tile['room']} from its tile ({watching['tourLine']!r}) and went back to the standings")


def play_my_game(phone, projector, deadline, round_number, out):
    """The phone, seated by the server, plays its game of `round_number` to the end. Returns its room."""
    seated = wait_tour(phone, deadline, f"the server to seat the phone for round {round_number}",
                       lambda t: t if t["view"] == "game" and t["tourLine"] and f"round {round_number} of {ROUNDS}" in t["tourLine"] else None,
                       cap=60)
    say(f"ok: seated by the server for round {round_number}; the game screen says {seated['tourLine']!r}")
    room = phone.execute_script("return S.room")
    if round_number == 2:
        watch_the_other_game(projector, deadline, room)
    player = Player(phone, deadline)
    first_turn = True
    seen = []
    while True:
        shown = wait_for(phone, deadline, "my turn or the end", lambda p: p if p["phase"] == "over" or (p["mine"] and p["phase"] == "playing") else None,
                         cap=30)
        if shown["phase"] == "over":
            break
        if first_turn and round_number == 1:
            screenshot(phone, out, "tournament-game-390.png")
        # While it is the phone's turn nothing moves: the projector's tile of this game must show its scores.
        scores = [str(p["score"]) for p in shown["players"]]
        wait_tour(projector, deadline, f"the projector's tile of {room} to show the scores {scores}",
                  lambda t: any(tile["room"] == room and tile["scores"] == scores for tile in t["tiles"]))
        if first_turn and round_number == 1:
            screenshot(projector, out, "projector-1920.png")
        seen.append(scores)
        COMPARED.append(scores)
        first_turn = False
        if not player.take_turn():
            break
    done = wait_for(phone, deadline, "the game's result", lambda p: p if p["phase"] == "over" and p["result"] else None)
    say(f"ok: round {round_number}'s game is over: {done['result']['text']!r}; on each of the phone's turns the projector's"
        f" tile of {room} showed its live scores: {seen}")
    return room


def run(args, deadline, phone, projector, bots, watchers):
    base = args.url.rstrip("/")
    name = args.name
    cup = args.tournament
    load(phone, f"{base}/?name={urllib.parse.quote(name)}")
    wait_tour(phone, deadline, "the lobby's tournaments", lambda t: t["view"] == "lobby" and phone.find_element(By.ID, "tournaments").text)
    say(f"ok: the lobby lists tournaments: {phone.find_element(By.ID, 'tournaments').text!r}")

    # Make the Swiss from the lobby's form, and enter it.
    phone.find_element(By.CSS_SELECTOR, "#tour-create summary").click()
    phone.find_element(By.ID, "tour-name").send_keys(cup)
    phone.find_element(By.ID, "tour-rounds").send_keys(str(ROUNDS))
    phone.find_element(By.ID, "tour-players").send_keys(str(BOTS + 1))
    screenshot(phone, args.out, "tournament-lobby-390.png")
    phone.find_element(By.ID, "tour-make").click()
    made = wait_tour(phone, deadline, "the tournament view with the phone entered",
                     lambda t: t if t["view"] == "tournament" and t["title"] == cup and len(t["rows"]) == 1 else None)
    if made["rows"][0]["name"] != name or not made["rows"][0]["cells"][1].startswith(name) or made["markup"]:
        raise Failure(f"the entrant's name is not shown as text: {made['rows']}, {made['markup']} elements of markup")
    if made["head"] != ["#", "Player", "Score", "Games", "Buchholz", "S-B"]:
        raise Failure(f"a Swiss's standings have the columns {made['head']}")
    say(f"ok: made {cup} and entered it: {made['status']!r}, {made['me']!r}, the name shown as text")

    watcher = Watcher(args.port, cup)
    watchers.append(watcher)
    standings_match(phone, deadline, watcher, "the phone's standings to match the watcher's")

    # The big screen watches by URL, in the projector layout.
    load(projector, f"{base}/?tournament={urllib.parse.quote(cup)}&projector")
    big = wait_tour(projector, deadline, "the projector's tournament view",
                    lambda t: t if t["view"] == "tournament" and t["layout"] == "projector" and len(t["rows"]) == 1 else None)
    say(f"ok: the projector follows {cup} by URL, type at {big['rootFont']} px")

    for index in range(BOTS):
        bots.append(subprocess.Popen([args.pairs, "bot", "--host", "127.0.0.1", "--port", str(args.port), "--tournament", cup,
                                      "--name", f"bot{index + 1}", "--think-ms", "50", "--seed", str(index + 1)],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    say(f"ok: started {BOTS} pairs bot --tournament {cup}")

    # The fourth entrant starts it: two games, shown as tiles beside the standings on the projector.
    shown = wait_tour(projector, deadline, "the projector to show round 1's two games",
                      lambda t: t if len(t["tiles"]) == 2 and "round 1" in t["clock"] else None, cap=60)
    message = watcher.latest()
    pairs_shown = sorted(tuple(tile["players"]) for tile in shown["tiles"])
    # Each tile names its players by seat, after their seat's mark.
    pairs_sent = sorted(tuple(f"{'●▲'[seat]} {player}" for seat, player in enumerate(p["players"])) for p in (message or {}).get("pairings", []))
    if pairs_shown != pairs_sent:
        raise Failure(f"the projector's tiles {pairs_shown} are not the pairings {message and message['pairings']}")
    if not (shown["standingsBox"]["right"] <= shown["pairingsBox"]["left"] and shown["pairingsBox"]["top"] < shown["standingsBox"]["bottom"]):
        raise Failure(f"the projector's standings {shown['standingsBox']} are not beside its games {shown['pairingsBox']}")
    if shown["rootFont"] < 28:
        raise Failure(f"the projector's type is {shown['rootFont']} px at 1920 wide: not readable across a room")
    say(f"ok: the projector shows round 1's games {pairs_shown} beside the standings")

    # The phone plays round 1; as its game ends, both pages' standings follow the tournament's messages.
    play_my_game(phone, projector, deadline, 1, args.out)
    phone.find_element(By.ID, "leave").click()
    back = wait_tour(phone, deadline, "the phone back on the tournament view",
                     lambda t: t if t["view"] == "tournament" else None)
    say(f"ok: back on the tournament view after the game: {back['me']!r}")
    for driver, label in ((phone, "phone"), (projector, "projector")):
        shown, message = standings_match(driver, deadline, watcher, f"the {label}'s standings to count the phone's game",
                                         when=lambda m: any(s["name"] == name and s["games"] == 1 for s in m["standings"]))
        say(f"ok: the {label}'s standings changed to the tournament's: {[r['cells'] for r in shown['rows']]}")
    after_one = wait_tour(phone, deadline, "round 1 to end (4 games counted) and the phone to wait for the next round",
                          lambda t: t if (watcher.latest() and games_played(watcher.latest()) == 4 and same_standings(t, watcher.latest())
                                          and "next round" in t["me"]) else None, cap=60)
    say(f"ok: round 1 is over; the phone says {after_one['me']!r}")
    screenshot(phone, args.out, "tournament-390.png")
    if after_one["scrollWidth"] > after_one["width"]:
        raise Failure(f"the tournament view is {after_one['scrollWidth']} px wide on a {after_one['width']} px phone")

    # A reload between rounds (or as the next begins): the page enters again on its new connection, shows the standings, and is
    # seated for round 2 all the same.
    load(phone)
    again = wait_tour(phone, deadline, "the reloaded page back on the tournament (or already seated for round 2)",
                      lambda t: t if (t["view"] == "game" and t["tourLine"]) or (t["view"] == "tournament" and same_standings(t, watcher.latest())) else None)
    say(f"ok: reloaded between rounds: back on the {again['view']} view")

    # Round 2: seated again by the server, then the end.
    play_my_game(phone, projector, deadline, 2, args.out)
    phone.find_element(By.ID, "leave").click()
    final = wait_tour(phone, deadline, "the final standings on the phone",
                      lambda t: t if (watcher.latest() and watcher.latest()["status"] == "finished" and same_standings(t, watcher.latest())
                                      and t["me"].startswith("Finished")) else None, cap=60)
    standings_match(projector, deadline, watcher, "the projector's final standings", when=lambda m: m["status"] == "finished")
    if games_played(watcher.latest()) != 8:
        raise Failure(f"the finished Swiss counts {games_played(watcher.latest())} games, not 8")
    if not COMPARED:
        raise Failure("neither of the phone's games came to its turn, so no live score was compared")
    say(f"ok: finished; the phone says {final['me']!r}; standings {[r['cells'] for r in final['rows']]}")
    screenshot(phone, args.out, "tournament-final-390.png")
    screenshot(projector, args.out, "projector-final-1920.png")

    for index, bot in enumerate(bots):
        try:
            output, _ = bot.communicate(timeout=deadline.left(BOT_EXIT_SECONDS))
        except subprocess.TimeoutExpired:
            raise Failure(f"bot{index + 1} did not exit once the tournament was over")
        games = [line for line in output.splitlines() if line.startswith("game ")]
        if bot.returncode != 0 or len(games) != ROUNDS:
            raise Failure(f"bot{index + 1} exited {bot.returncode} after {len(games)} games: {output!r}")
    say(f"ok: the {BOTS} bots played {ROUNDS} games each and exited 0")


def seconds_left(clock):
    """The seconds an arena's clock says ("0:12 left"), or None."""
    match = re.match(r"^(\d+):(\d\d) (left|of play)$", clock)
    return int(match.group(1)) * 60 + int(match.group(2)) if match else None


def arena(args, deadline, phone, projector, bots, watchers):
    """The phone makes an arena it does not play in, is refused a second of the same name and a start
    without players in words, starts it once two bots are in, and follows it to its end."""
    base = args.url.rstrip("/")
    name = args.tournament
    load(phone, f"{base}/?name=host")
    wait_tour(phone, deadline, "the lobby", lambda t: t["view"] == "lobby")

    def make():
        phone.execute_script("""
            const set = (id, value) => { const f = document.getElementById(id); f.value = value; f.dispatchEvent(new Event("change")); };
            document.getElementById("tour-create").open = true;
            set("tour-format", "arena"); set("tour-name", arguments[0]); set("tour-minutes", arguments[1]);
            document.getElementById("tour-enter").checked = false;""", name, str(args.minutes))
        phone.find_element(By.ID, "tour-make").click()

    # A tournament of many entrants, sent in several lines: the page puts them together.
    big = f"{name}-big"
    many = []
    watchers.append(many)
    for index in range(BIG_ENTRANTS):
        entrant = socket.create_connection(("127.0.0.1", args.port), timeout=10)
        many.append(entrant)
        entrant.sendall((json.dumps({"type": "hello", "name": f"entrant-long-name-{index:02}"}) + "\n").encode())  # 24 characters at most
        if index == 0:
            # The others join only once it exists: each entrant is a connection of its own, and another
            # connection's join may be read (on another event loop) before this one's create.
            entrant.sendall((json.dumps({"type": "tournament_create", "name": big, "format": "swiss"}) + "\n").encode())
            await_tournament(entrant, big, deadline)
        entrant.sendall((json.dumps({"type": "tournament_join", "tournament": big}) + "\n").encode())
    watcher = Watcher(args.port, big)
    watchers.append(watcher)
    load(phone, f"{base}/?tournament={big}")
    shown, message = standings_match(phone, deadline, watcher, f"the {BIG_ENTRANTS} entrants of {big}",
                                     when=lambda m: len(m["standings"]) == BIG_ENTRANTS)
    if watcher.lines < 2:
        raise Failure(f"the standings of {BIG_ENTRANTS} entrants came in one line: no long message was put together")
    say(f"ok: the page put together {big}'s standings of {len(shown['rows'])} rows, sent in {watcher.lines} lines")
    phone.find_element(By.ID, "tour-lobby").click()

    make()
    made = wait_tour(phone, deadline, "the arena's view", lambda t: t if t["view"] == "tournament" and t["title"] == name else None)
    if made["head"] != ["#", "Player", "Score", "Games", "Streak"] or seconds_left(made["clock"]) != round(args.minutes * 60):
        raise Failure(f"an open arena of {args.minutes} minutes shows the columns {made['head']} and the clock {made['clock']!r}")
    if not phone.find_element(By.ID, "tour-start").is_displayed() or not phone.find_element(By.ID, "tour-join").is_displayed():
        raise Failure("its maker, not in it, is not offered Start and Join")
    say(f"ok: made the arena {name}: {made['status']!r}, clock {made['clock']!r}, columns {made['head']}")

    # The layout toggle: the phone's button turns the projector layout on and off.
    phone.find_element(By.ID, "tour-projector").click()
    wait_tour(phone, deadline, "the phone's toggle to the projector layout", lambda t: t["layout"] == "projector")
    phone.find_element(By.ID, "tour-projector").click()
    wait_tour(phone, deadline, "the phone's toggle back", lambda t: t["layout"] == "page")
    say("ok: the Projector button toggles the layout")

    phone.find_element(By.ID, "tour-start").click()
    wait_tour(phone, deadline, "a start without players refused in words", lambda t: "two players at least" in t["notice"])
    say("ok: Start with nobody in it is refused: " + tour(phone)["notice"])

    phone.find_element(By.ID, "tour-lobby").click()
    listed = wait_tour(phone, deadline, "the lobby to list the arena",
                       lambda t: phone.find_element(By.CSS_SELECTOR, f'#tournaments li[data-tournament="{name}"]').text
                       if t["view"] == "lobby" and phone.find_elements(By.CSS_SELECTOR, f'#tournaments li[data-tournament="{name}"]') else None)
    if "starts when host says" not in listed or "arena" not in listed:
        raise Failure(f"the lobby lists the arena as {listed!r}")
    say(f"ok: the lobby lists {listed!r}")
    make()
    wait_tour(phone, deadline, "a second arena of the same name refused in words", lambda t: "of that name already" in t["notice"])
    say("ok: a second tournament of the same name is refused: " + tour(phone)["notice"])

    phone.find_element(By.CSS_SELECTOR, f'#tournaments li[data-tournament="{name}"] button:last-child').click()
    wait_tour(phone, deadline, "the arena's view again, by Watch", lambda t: t["view"] == "tournament" and t["title"] == name)
    watcher = Watcher(args.port, name)
    watchers.append(watcher)
    for index in range(2):
        bots.append(subprocess.Popen([args.pairs, "bot", "--host", "127.0.0.1", "--port", str(args.port), "--tournament", name,
                                      "--name", f"bot{index + 1}", "--think-ms", "50", "--seed", str(index + 1)],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    # A third entrant, on a raw connection, who pauses once it has started.
    sleeper = socket.create_connection(("127.0.0.1", args.port), timeout=10)
    many.append(sleeper)
    sleeper.sendall((json.dumps({"type": "hello", "name": "sleeper"}) + "\n"
                     + json.dumps({"type": "tournament_join", "tournament": name}) + "\n").encode())
    standings_match(phone, deadline, watcher, "both bots and the sleeper in the standings", when=lambda m: len(m["standings"]) == 3)
    phone.find_element(By.ID, "tour-start").click()
    running = wait_tour(phone, deadline, "the arena running, its game shown",
                        lambda t: t if "running" in t["status"] and t["tiles"] and seconds_left(t["clock"]) is not None else None)
    first = seconds_left(running["clock"])
    sleeper.sendall((json.dumps({"type": "tournament_leave", "tournament": name}) + "\n").encode())
    paused, _ = standings_match(phone, deadline, watcher, "the sleeper paused, greyed",
                                when=lambda m: any(s["name"] == "sleeper" and not s["active"] for s in m["standings"]))
    row = next(r for r in paused["rows"] if r["name"] == "sleeper")
    grey = phone.execute_script("""return getComputedStyle(document.querySelector('#standings tr[data-name="sleeper"] td')).opacity""")
    if not row["inactive"] or "paused" not in row["cells"][1] or float(grey) >= 1:
        raise Failure(f"the paused player's row is {row}, opacity {grey}")
    say(f"ok: the paused player's row is greyed: {row['cells']}")
    counted = wait_tour(phone, deadline, "the clock to count down", lambda t: t if (seconds_left(t["clock"]) or 99) < first else None)
    say(f"ok: started; the clock went from {running['clock']!r} to {counted['clock']!r}; game {running['tiles']}")
    screenshot(phone, args.out, "arena-390.png")
    final = wait_tour(phone, deadline, "the arena's end, its standings the watcher's",
                      lambda t: t if (watcher.latest() and watcher.latest()["status"] == "finished" and same_standings(t, watcher.latest())) else None,
                      cap=args.minutes * 60 + 60)
    games = [row["cells"][3] for row in final["rows"]]
    if games[0] == "0":
        raise Failure(f"the arena ended with no game played: {final['rows']}")
    say(f"ok: the arena is over: {[row['cells'] for row in final['rows']]}, clock {final['clock']!r}")
    screenshot(phone, args.out, "arena-final-390.png")
    for index, bot in enumerate(bots):
        try:
            output, _ = bot.communicate(timeout=deadline.left(BOT_EXIT_SECONDS))
        except subprocess.TimeoutExpired:
            raise Failure(f"bot{index + 1} did not exit once the arena was over")
        if bot.returncode != 0:
            raise Failure(f"bot{index + 1} exited {bot.returncode}: {output!r}")
    say("ok: both bots exited 0")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", choices=["swiss", "arena"], default="swiss",
                        help="swiss: a Swiss of four, the phone in it, and a projector; arena: an arena of two bots the phone makes and watches")
    parser.add_argument("--minutes", type=float, default=0.2, help="the arena's length (arena)")
    parser.add_argument("--url", required=True, help="the server's page, http://HOST:PORT/")
    parser.add_argument("--pairs", required=True, help="the pairs binary, for the bots")
    parser.add_argument("--tournament", default="cup", help="the tournament's name")
    parser.add_argument("--name", default="<b>ann</b>", help="the phone's player name (markup, to see it shown as text)")
    parser.add_argument("--out", required=True, help="directory for the screenshots")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--seconds", type=float, default=150, help="the longest the whole run may take")
    args = parser.parse_args()
    args.port = urllib.parse.urlsplit(args.url).port
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    deadline = Deadline(args.seconds)
    os.makedirs(args.out, exist_ok=True)
    phone = projector = None
    bots, watchers = [], []
    try:
        phone = browser(args, PHONE, phone=True)
        if args.scenario == "arena":
            say("ok: a headless browser")
            arena(args, deadline, phone, projector, bots, watchers)
        else:
            projector = browser(args, PROJECTOR, phone=False)
            say("ok: two headless browsers")
            run(args, deadline, phone, projector, bots, watchers)
        say("passed")
        return 0
    except (Failure, WebDriverException) as error:
        print(f"tournament_page.py: {type(error).__name__}: {getattr(error, 'msg', None) or error}", file=sys.stderr)
        screenshot_failure(args.out, phone=phone, projector=projector)
        return 1
    finally:
        quit_browsers(phone, projector)
        for bot in bots:
            if bot.poll() is None:
                bot.terminate()
                bot.wait()
        for watcher in watchers:
            for connection in (watcher if isinstance(watcher, list) else [watcher]):
                connection.close()


if __name__ == "__main__":
    sys.exit(main())

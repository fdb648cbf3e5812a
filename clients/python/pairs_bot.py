#!/usr/bin/env python3
"""A Pairs bot in Python, using only the standard library.

It speaks the JSON lines of protocol.md: joins a room (or quick match), flips cards when it is on turn,
asks for a rematch after each game, and prints one line per finished game, the same lines `pairs bot`
prints:

    game 1: py-memory 3 - 1 bot-random (won)

Run it next to a server (`pairs serve`):

    python3 pairs_bot.py --room kitchen --games 3 --strategy memory

Exit status: 0 once the games are played, 1 if it cannot connect or the server goes away, 2 on a bad option.

It reads only what protocol.md promises, so it plays against any server that follows it: an event may be
just its `kind` (seat, card, cards and id are optional), and message types, event kinds and fields it does
not know are skipped, as protocol.md asks (the first such type or kind is mentioned once on stderr).
"""

import argparse
import json
import random
import select
import socket
import sys
import time

PROTOCOL_VERSION = 1
# The message types and event kinds of protocol.md; anything else comes from a newer protocol and is skipped.
KNOWN_TYPES = {"welcome", "joined", "state", "error", "chat", "rooms", "pong", "stats", "left", "help", "bye"}
KNOWN_EVENT_KINDS = {"join", "start", "flip", "match", "mismatch", "hide", "timeout", "over", "forfeit", "leave",
                     "disconnect", "reconnect", "rematch"}
# The server allows 40 messages a second per connection; a bot that answers every state at once would be
# rate limited and then cut off. 30 ms between requests keeps it at 33 a second.
MIN_SEND_INTERVAL_S = 0.030
# A flip is only refused when the bot's picture of the game is wrong or it is being rate limited; either
# clears within a move or two. More refusals in a row than this means something is broken.
MAX_CONSECUTIVE_REFUSALS = 10
CONNECT_TIMEOUT_S = 5.0
# The protocol's line limit is 4096 bytes; a server line longer than this is not one we can use.
MAX_LINE_BYTES = 64 * 1024


class Memory:
    """Every face seen on the board of the current game, by card number; forgotten when the game changes."""

    def __init__(self):
        self.game = None
        self.faces = {}

    def observe(self, state):
        if state["game"] != self.game:
            self.game = state["game"]
            self.faces = {}
        for index, card in enumerate(state["cards"]):
            if card["state"] in ("up", "matched"):
                self.faces[index] = card["face"]


def face_down(state):
    return [i for i, card in enumerate(state["cards"]) if card["state"] == "down"]


def choose_memory(state, memory, rng):
    """Take a known pair; with one card up, flip its partner if seen; otherwise flip an unseen card."""
    down = face_down(state)
    if not down:
        return None
    up = [(i, c["face"]) for i, c in enumerate(state["cards"]) if c["state"] == "up"]
    if up:
        card, face = up[0]
        for other in down:
            if other != card and memory.faces.get(other) == face:
                return other
    else:
        first_by_face = {}
        for card in down:
            face = memory.faces.get(card)
            if face is None:
                continue
            if face in first_by_face:
                return first_by_face[face]
            first_by_face[face] = card
    unseen = [card for card in down if card not in memory.faces]
    return rng.choice(unseen or down)


def choose_random(state, memory, rng):
    down = face_down(state)
    return rng.choice(down) if down else None


STRATEGIES = {"memory": choose_memory, "random": choose_random}


class Bot:
    def __init__(self, args):
        self.args = args
        self.name = args.name or "py-" + args.strategy
        self.choose = STRATEGIES[args.strategy]
        self.rng = random.Random(args.seed)
        self.memory = Memory()
        self.sock = None
        self.buffer = b""
        self.last_send = 0.0
        self.next_id = 1
        self.seat = None
        self.latest = None
        self.pending_flip = None  # (id, card) of the flip in flight
        self.reported_unknown = False
        self.thinking = None  # (state seq, when the thinking is done)
        self.recorded_game = None
        self.rematch_for = None
        self.refusals = 0
        self.results = []
        self.done = False

    # -- the connection --------------------------------------------------------------------------------

    def connect(self):
        try:
            self.sock = socket.create_connection((self.args.host, self.args.port), timeout=CONNECT_TIMEOUT_S)
        except OSError as error:
            reason = error.strerror or str(error)
            fail("cannot connect to %s:%d: %s" % (self.args.host, self.args.port, reason))
        self.sock.settimeout(None)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def send(self, message):
        wait = self.last_send + MIN_SEND_INTERVAL_S - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        message = dict(message, id=self.next_id)
        self.next_id += 1
        self.sock.sendall((json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8"))
        self.last_send = time.monotonic()
        return message["id"]

    def read_line(self, timeout):
        """The next line (without its newline), None on timeout, or "" at the end of the stream."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buffer:
            if len(self.buffer) > MAX_LINE_BYTES:
                fail("the server sent a line longer than %d bytes" % MAX_LINE_BYTES)
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            readable, _, _ = select.select([self.sock], [], [], remaining)
            if not readable:
                return None
            chunk = self.sock.recv(65536)
            if not chunk:
                return ""
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace").rstrip("\r") or " "

    # -- the game --------------------------------------------------------------------------------------

    def run(self):
        self.connect()
        while not self.done:
            timeout = None
            if self.thinking is not None:
                timeout = max(0.0, self.thinking[1] - time.monotonic())
            line = self.read_line(timeout)
            if line is None:
                self.thought()
                continue
            if line == "":
                fail("the server closed the connection")
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except ValueError:
                print("pairs_bot.py: ignored a line that is not JSON", file=sys.stderr)
                continue
            self.handle(message)
        try:
            self.send({"type": "quit"})
        except OSError:
            pass
        self.sock.close()

    def handle(self, message):
        kind = message.get("type")
        if kind not in KNOWN_TYPES:
            self.skipped_unknown("message type", kind)
        if kind == "welcome" and "id" not in message:
            self.send({"type": "hello", "name": self.name, "protocol": PROTOCOL_VERSION})
            join = {"type": "join"}
            if self.args.room:
                join["room"] = self.args.room
            self.join_id = self.send(join)
        elif kind == "joined":
            self.seat = message.get("seat")
        elif kind == "state":
            self.observe(message)
        elif kind == "error":
            self.refused(message)
        elif kind == "bye":
            fail("the server said goodbye (%s)" % message.get("reason"))

    def skipped_unknown(self, what, name):
        """Says once that the server speaks a newer protocol: it would send such things with every state."""
        if not self.reported_unknown:
            self.reported_unknown = True
            print("pairs_bot.py: ignored parts of the server's messages it does not know (first: unknown %s %s)"
                  % (what, json.dumps(name)), file=sys.stderr, flush=True)

    def observe(self, state):
        self.latest = state
        self.memory.observe(state)
        event = state.get("event") or {}
        if event.get("kind") not in KNOWN_EVENT_KINDS:
            self.skipped_unknown("event kind", event.get("kind"))
        if self.seat is None:
            return
        if self.pending_flip is not None and self.answers(state, event.get("id")):
            self.pending_flip = None
            self.refusals = 0
        on_turn = state["phase"] == "playing" and state["turn"] == self.seat
        if not on_turn:
            self.pending_flip = None
            self.thinking = None
        if state["phase"] == "over" and self.recorded_game != state["game"]:
            self.recorded_game = state["game"]
            self.report(state)
            if self.args.games and len(self.results) >= self.args.games:
                self.send({"type": "leave"})
                self.done = True
                return
        if state["phase"] == "over" and self.rematch_for != state["game"]:
            self.rematch_for = state["game"]
            self.send({"type": "rematch"})
        if on_turn and self.pending_flip is None:
            self.thinking = (state["seq"], time.monotonic() + self.args.think_ms / 1000.0)

    def thought(self):
        seq, _ = self.thinking
        self.thinking = None
        state = self.latest
        if state is None or state["seq"] != seq or self.pending_flip is not None:
            return
        if state["phase"] != "playing" or state["turn"] != self.seat:
            return
        card = self.choose(state, self.memory, self.rng)
        if card is not None:
            self.pending_flip = (self.send({"type": "flip", "card": card}), card)

    def answers(self, state, event_id):
        """Whether the state answers the flip in flight: it carries the flip's id or, from a server that
        leaves ids out of events, no id and the flipped card turned up (only a flip turns a card up)."""
        flip_id, card = self.pending_flip
        if event_id is not None:
            return event_id == flip_id
        cards = state["cards"]
        return 0 <= card < len(cards) and cards[card]["state"] != "down"

    def refused(self, error):
        if error.get("id") == getattr(self, "join_id", None) and self.seat is None:
            fail("cannot join: %s" % error.get("message"))
        if self.pending_flip is None or error.get("id") != self.pending_flip[0]:
            return
        self.pending_flip = None
        self.refusals += 1
        if self.refusals >= MAX_CONSECUTIVE_REFUSALS:
            fail("the server refused %d moves in a row; the last: %s" % (self.refusals, error.get("message")))
        state = self.latest
        if state and state["phase"] == "playing" and state["turn"] == self.seat:
            self.thinking = (state["seq"], time.monotonic() + self.args.think_ms / 1000.0)

    def report(self, state):
        me, them = state["players"][self.seat], state["players"][1 - self.seat]
        winner = state.get("winner")
        result = "draw" if winner is None else ("won" if winner == self.seat else "lost")
        event = state.get("event") or {}
        if event.get("kind") == "forfeit":
            # A server may leave out who forfeited; whoever it was lost.
            seat = event.get("seat", None if winner is None else 1 - winner)
            loser = state["players"][seat] if seat is not None else None
            result += ", %s forfeited" % (loser["name"] if loser else "a player")
        self.results.append(result.split(",")[0])
        print("game %d: %s %d - %d %s (%s)" % (
            len(self.results), me["name"] if me else self.name, me["score"] if me else 0,
            them["score"] if them else 0, them["name"] if them else "nobody", result), flush=True)


def fail(reason):
    print("pairs_bot.py: " + reason, file=sys.stderr, flush=True)
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser(description="A Pairs bot: plays games and prints one line per game.")
    parser.add_argument("--host", default="localhost", help="server host name or address (default localhost)")
    parser.add_argument("--port", type=int, default=7777, help="server port (default 7777)")
    parser.add_argument("--room", help="room to join or create (default: quick match)")
    parser.add_argument("--games", type=int, default=0, help="games to play, then leave (default 0: until stopped)")
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="memory", help="how to pick cards (default memory)")
    parser.add_argument("--name", help="the bot's name (default py-STRATEGY)")
    parser.add_argument("--think-ms", type=int, default=600, help="milliseconds to think before each flip (default 600)")
    parser.add_argument("--seed", type=int, help="seed the bot's choices, to repeat a run")
    args = parser.parse_args()
    if args.games < 0:
        parser.error("--games must be 0 or more")
    if not 0 <= args.think_ms <= 10000:
        parser.error("--think-ms must be 0-10000")
    bot = Bot(args)
    try:
        bot.run()
    except KeyboardInterrupt:
        pass
    except OSError as error:
        fail("the connection failed: %s" % (error.strerror or error))
    if bot.results:
        count = len(bot.results)
        print("total: %d game%s, %d won, %d lost, %d drawn" % (
            count, "" if count == 1 else "s", bot.results.count("won"), bot.results.count("lost"),
            bot.results.count("draw")), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

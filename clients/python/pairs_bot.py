#!/usr/bin/env python3
"""A Pairs bot in Python, using only the standard library.

It speaks the JSON lines of protocol.md: joins a room (or quick match), flips cards when it is on turn,
asks for a rematch after each game (or, with `--tournament NAME`, enters a tournament, plays every game
the server seats it in, and exits when the tournament ends), and prints one line per finished game, the
same lines `pairs bot` prints:

    game 1: py-memory 3 - 1 bot-random (won)
    game 2: py-memory cleared the board, 8 points (won)          (a solo game)

It plays every variant of the rules (solo games, sets of three, a deck of playing cards, Matchismo
scoring, game clocks, the quick peek), asks for them with the same flags as `pairs bot` (`--solo`,
`--match 3`, `--deck cards`, ...) when it creates a room, and plays by the rules the room sends.

Run it next to a server (`pairs serve`):

    python3 pairs_bot.py --room kitchen --games 3 --strategy memory

With --password (asked without showing it, or read from PAIRS_PASSWORD) it claims its name or proves it
is its own, so its games count on the ladders: only games between claimed names are rated.

Exit status: 0 once the games are played, 1 if it cannot connect or the server goes away, 2 on a bad option.

Every string a server sends is cleaned before anything is printed (`printable`): a server, or anyone on
the path, could otherwise put escape sequences in a name that set the terminal's title or clipboard,
clear its screen or type into it.

It reads only what protocol.md promises, so it plays against any server that follows it: an event may be
just its `kind` (seat, card, cards and id are optional), and message types, event kinds and fields it does
not know are skipped, as protocol.md asks (the first such type or kind is mentioned once on stderr).
"""

import argparse
import getpass
import os
import json
import random
import select
import socket
import sys
import time
import unicodedata

PROTOCOL_VERSION = 1
# The message types and event kinds of protocol.md; anything else comes from a newer protocol and is skipped.
KNOWN_TYPES = {"welcome", "joined", "state", "error", "chat", "rooms", "pong", "stats", "left", "help", "bye", "redirect",
               "tournament", "tournaments"}
# Redirects followed for one join, at most: instances that disagree about a room's owner must not send the
# bot back and forth forever.
MAX_REDIRECTS = 4
KNOWN_EVENT_KINDS = {"join", "peek", "start", "flip", "match", "mismatch", "hide", "timeout", "over", "time_up",
                     "exhausted", "forfeit", "leave", "disconnect", "reconnect", "rematch"}
# The server allows 40 messages a second per connection; a bot that answers every state at once would be
# rate limited and then cut off. 30 ms between requests keeps it at 33 a second.
MIN_SEND_INTERVAL_S = 0.030
# A flip is only refused when the bot's picture of the game is wrong or it is being rate limited; either
# clears within a move or two. More refusals in a row than this means something is broken.
MAX_CONSECUTIVE_REFUSALS = 10
CONNECT_TIMEOUT_S = 5.0
# The protocol's line limit is 4096 bytes; a server line longer than this is not one we can use.
MAX_LINE_BYTES = 64 * 1024


def printable(value):
    """`value` (a parsed line, or any part of one) with every string in it, member names too, safe to print:
    control characters (C0 such as ESC, DEL, C1 such as U+009B), format characters (bidirectional overrides,
    invisible ones; U+200D, which holds emoji together, stays) and lone surrogates are removed, and every
    whitespace character (tab, CR, NEL, line separators) becomes a space. The rules of the server's own
    TextCleaner, as `pairs` applies them to what it reads."""
    if isinstance(value, str):
        return "".join(" " if char.isspace() else char for char in value if char.isspace() or not unsafe(char))
    if isinstance(value, list):
        return [printable(element) for element in value]
    if isinstance(value, dict):
        return {printable(key): printable(element) for key, element in value.items()}
    return value


def unsafe(char):
    """Whether a character acts on a terminal or on the direction of text instead of showing."""
    category = unicodedata.category(char)
    return category in ("Cc", "Cs") or (category == "Cf" and char != "\u200d")


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


# -- the rules ---------------------------------------------------------------------------------------------

# A room of the classic game sends no rules: these are what it plays (its board and clocks do not matter here).
CLASSIC_RULES = {"seats": 2, "match": 2, "deck": "words", "scoring": "classic", "flip_cost": 1, "mismatch_penalty": 2,
                 "match_bonus": 4, "game_seconds": 0, "peek_ms": 0, "again_on_match": True}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["\u2660", "\u2665", "\u2666", "\u2663"]  # spades, hearts, diamonds, clubs
# A rank match is worth 4, a suit match 1, a set of words 1 (protocol.md, "Rules and variants").
RANK_VALUE, SUIT_VALUE = 4, 1
# Plans searched at most per decision at the end of a game of playing cards (see plan_sets).
PLAN_BUDGET = 2000


def playing_card(face):
    """(rank 1-13, suit 0-3) of a face such as "10\u2665", or None for a word."""
    if face is None:
        return None
    for suit, symbol in enumerate(SUITS):
        if face.endswith(symbol) and face[:-len(symbol)] in RANKS:
            return RANKS.index(face[:-len(symbol)]) + 1, suit
    return None


def set_value(cards):
    """What playing cards (rank, suit) are worth as a set: 4 for one rank, 1 for one suit, else None."""
    if len({rank for rank, _ in cards}) == 1:
        return RANK_VALUE
    if len({suit for _, suit in cards}) == 1:
        return SUIT_VALUE
    return None


def choose_memory(state, memory, rng, rules):
    """The card a player with perfect memory flips, under any rules (the reasoning of `pairs bot`'s
    TurnPlanner): the best set it knows, with the cards up this turn or whole; otherwise an unseen card.

    Playing cards: a rank match (worth 4) before a suit match (worth 1), and among suit matches the cards
    whose rank has the fewest copies unseen. Once every card is known, a plan for the whole board, so no
    card is stranded. Solo without a clock, no set before every card is seen (sets overlap, and taking
    them as they come strands cards); with two players and Matchismo, when a match passes the turn, an
    unseen card instead of a sure suit match only when its odds of a rank match pay for the set left to
    the opponent."""
    known = []
    for index, card in enumerate(state["cards"]):
        side = {"down": "down", "up": "up"}.get(card["state"], "gone")
        face = memory.faces.get(index) if side == "down" else card.get("face")
        known.append((side, face))
    down = [i for i, (side, _) in enumerate(known) if side == "down"]
    if not down:
        return None
    up = [i for i, (side, _) in enumerate(known) if side == "up"]
    size = rules["match"]
    card = None
    if len(up) < size:
        card = sure_word(known, up, size) if rules["deck"] == "words" else sure_card(known, up, size, rules)
    if card is not None:
        return card
    unseen = [i for i in down if known[i][1] is None]
    return rng.choice(unseen or down)


def sure_word(known, up, size):
    """Words: the first known card of the word up, or the first card of the word whose last known card
    comes first."""
    known_down = [(i, face) for i, (side, face) in enumerate(known) if side == "down" and face is not None]
    if up:
        faces = {known[i][1] for i in up}
        if len(faces) != 1:
            return None
        matching = [i for i, face in known_down if face in faces]
        return matching[0] if len(matching) >= size - len(up) else None
    first_of, count = {}, {}
    for index, face in known_down:
        first_of.setdefault(face, index)
        count[face] = count.get(face, 0) + 1
        if count[face] >= size:
            return first_of[face]
    return None


def sure_card(known, up, size, rules):
    """Playing cards: a rank match, then a suit match, or the plan once nothing is unseen."""
    cards = {i: playing_card(face) for i, (_, face) in enumerate(known) if playing_card(face) is not None}
    known_down = [i for i, (side, _) in enumerate(known) if side == "down" and i in cards]
    unseen = [i for i, (side, face) in enumerate(known) if side == "down" and face is None]
    if any(i not in cards for i in up):
        return None
    up_cards = [cards[i] for i in up]
    if not unseen:
        return planned_card(known_down, up, up_cards, size, cards)
    if rules["seats"] == 1 and rules["game_seconds"] == 0:
        return safe_card(known_down, up_cards, size, cards)
    needed = size - len(up_cards)
    # The rank and the suit the cards up share, if they do.
    rank = up_cards[0][0] if up_cards and len({c[0] for c in up_cards}) == 1 else None
    suit = up_cards[0][1] if up_cards and len({c[1] for c in up_cards}) == 1 else None
    rank_count, suit_count, seen_rank = {}, {}, {}
    for i in known_down:
        rank_count[cards[i][0]] = rank_count.get(cards[i][0], 0) + 1
        suit_count[cards[i][1]] = suit_count.get(cards[i][1], 0) + 1
    for card in cards.values():
        seen_rank[card[0]] = seen_rank.get(card[0], 0) + 1
    for i in known_down:
        if up_cards and cards[i][0] != rank:
            continue
        if rank_count[cards[i][0]] >= needed:
            return i
    best = None
    for i in known_down:
        if (up_cards and cards[i][1] != suit) or suit_count[cards[i][1]] < needed:
            continue
        unseen_copies = len(SUITS) - seen_rank.get(cards[i][0], 0)
        if best is None or unseen_copies < best[1]:
            best = (i, unseen_copies)
    if best is None:
        return None
    if not up_cards and exploring_beats_suit_match(rules, cards, rank_count, suit_count, size):
        return None
    return best[0]


def safe_card(known_down, up_cards, size, cards):
    """Solo without a clock, cards unseen: on the last flip of a turn, a known card that cannot complete a
    set with the cards up; None (explore) otherwise."""
    if len(up_cards) != size - 1:
        return None
    rank = up_cards[0][0] if len({c[0] for c in up_cards}) == 1 else None
    suit = up_cards[0][1] if len({c[1] for c in up_cards}) == 1 else None
    if rank is None and suit is None:
        return None
    for i in known_down:
        if cards[i][0] != rank and cards[i][1] != suit:
            return i
    return None


def exploring_beats_suit_match(rules, cards, rank_count, suit_count, size):
    """Two players, Matchismo, a match that passes the turn: whether one unseen card's expected score
    beats the sure suit match by more than the match itself, which the opponent would then take."""
    if rules["seats"] != 2 or rules["again_on_match"] or rules["scoring"] != "matchismo":
        return False
    seen = {card for card in cards.values() if card is not None}
    pool = rank_matches = suit_matches = 0
    for rank in range(1, len(RANKS) + 1):
        for suit in range(len(SUITS)):
            if (rank, suit) in seen:
                continue
            pool += 1
            if rank_count.get(rank, 0) >= size - 1:
                rank_matches += 1
            elif suit_count.get(suit, 0) >= size - 1:
                suit_matches += 1
    if pool == 0:
        return False
    flips = size * rules["flip_cost"]
    sure = rules["match_bonus"] * SUIT_VALUE - flips
    miss = (pool - rank_matches - suit_matches) / pool
    explore = (rank_matches / pool * (rules["match_bonus"] * RANK_VALUE - flips) + suit_matches / pool * sure
               + miss * (-flips - rules["mismatch_penalty"]))
    return explore - sure > sure


def planned_card(known_down, up, up_cards, size, cards):
    """Every face-down card known: the next card of the best plan for the rest of the board (the most cards
    in sets, then the most value), the cards up included."""
    plan = Plan([cards[i] for i in known_down], size)
    everything = (1 << len(known_down)) - 1
    if not up:
        first = plan.first_set(everything)
        return None if first is None else known_down[(first & -first).bit_length() - 1]
    best = None
    needed = size - len(up)
    for combo in combinations(range(len(known_down)), needed):
        value = set_value(up_cards + [plan.cards[j] for j in combo])
        if value is None:
            continue
        taken = sum(1 << j for j in combo)
        score = value + plan.best(everything & ~taken)
        if best is None or score > best[1]:
            best = (known_down[combo[0]], score)
    return None if best is None else best[0]


def combinations(items, count):
    """The ways to choose `count` of `items` (1 or 2), in order."""
    items = list(items)
    if count == 1:
        return [(a,) for a in items]
    return [(a, b) for n, a in enumerate(items) for b in items[n + 1:]]


class Plan:
    """The best split of known playing cards into sets: each card in a set scores 1000, plus the sets'
    values; depth first from the card with the fewest sets to join, memoised, within PLAN_BUDGET masks."""

    def __init__(self, cards, size):
        self.cards, self.size, self.memo, self.nodes = cards, size, {}, 0

    def members(self, mask):
        return [i for i in range(len(self.cards)) if mask >> i & 1]

    def sets_with(self, card, mask):
        others = [i for i in self.members(mask) if i != card]
        found = []
        for same_rank, value in ((True, RANK_VALUE), (False, SUIT_VALUE)):
            field = 0 if same_rank else 1
            mates = [i for i in others if self.cards[i][field] == self.cards[card][field]]
            for combo in combinations(mates, self.size - 1):
                found.append((sum(1 << i for i in combo) | 1 << card, value))
        return found

    def most_constrained(self, mask):
        members = self.members(mask)
        ranks, suits = {}, {}
        for i in members:
            ranks[self.cards[i][0]] = ranks.get(self.cards[i][0], 0) + 1
            suits[self.cards[i][1]] = suits.get(self.cards[i][1], 0) + 1
        def ways(n):  # choosing the set's other cards among n
            return n if self.size == 2 else n * (n - 1) // 2
        def options(card):
            return ways(ranks[self.cards[card][0]] - 1) + ways(suits[self.cards[card][1]] - 1)
        return min(members, key=options) if members else None

    def best(self, mask):
        if mask == 0:
            return 0
        if mask in self.memo:
            return self.memo[mask]
        if self.nodes >= PLAN_BUDGET:
            return 0
        self.nodes += 1
        card = self.most_constrained(mask)
        result = self.best(mask & ~(1 << card))
        for cards, value in self.sets_with(card, mask):
            result = max(result, value + 1000 * self.size + self.best(mask & ~cards))
        self.memo[mask] = result
        return result

    def first_set(self, mask):
        card = self.most_constrained(mask)
        if card is None:
            return None
        best = None
        for cards, value in self.sets_with(card, mask):
            score = value + 1000 * self.size + self.best(mask & ~cards)
            if best is None or score > best[1]:
                best = (cards, score)
        without = mask & ~(1 << card)
        if best is not None and best[1] >= self.best(without):
            return best[0]
        return self.first_set(without)


def choose_random(state, memory, rng, rules):
    down = face_down(state)
    return rng.choice(down) if down else None


STRATEGIES = {"memory": choose_memory, "random": choose_random}


class Bot:
    def __init__(self, args):
        self.args = args
        self.name = args.name or "py-" + args.strategy
        self.password = None
        self.choose = STRATEGIES[args.strategy]
        self.rng = random.Random(args.seed)
        self.memory = Memory()
        self.sock = None
        self.buffer = b""
        self.last_send = 0.0
        self.next_id = 1
        self.hello_id = None  # the id of the hello, whose answer (welcome or error) comes with it
        self.join_id = None
        self.seat = None
        self.room = None
        self.latest = None
        self.pending_flip = None  # (id, card) of the flip in flight
        self.reported_unknown = False
        self.rules = dict(CLASSIC_RULES)
        self.thinking = None  # (state seq, when the thinking is done)
        self.recorded_game = None
        self.rematch_for = None
        self.refusals = 0
        self.results = []
        self.done = False
        # Where the bot connects: the server it was given, or the instance of a cluster a redirect named.
        self.host, self.port = args.host, args.port
        self.redirects = 0

    # -- the connection --------------------------------------------------------------------------------

    def connect(self):
        try:
            self.sock = socket.create_connection((self.host, self.port), timeout=CONNECT_TIMEOUT_S)
        except OSError as error:
            reason = error.strerror or str(error)
            fail("cannot connect to %s:%d: %s" % (self.host, self.port, reason))
        self.sock.settimeout(None)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        # Spoken first, without waiting for the welcome: a server that also serves browsers may hold the
        # welcome of a connection that has said nothing (protocol.md, "One port").
        # `redirects`: in a cluster of servers, the room may be on another instance, which a redirect names.
        hello = {"type": "hello", "name": self.name, "protocol": PROTOCOL_VERSION, "redirects": True}
        if self.password is not None:
            hello["password"] = self.password
        self.hello_id = self.send(hello)

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
                message = printable(json.loads(line))
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
        if kind == "welcome" and self.hello_id is not None and message.get("id") == self.hello_id:
            # Joined only once the name is set: a claimed name may be refused, and the bot must not sit
            # down under another one.
            if self.args.tournament:
                # The tournament seats the bot in each of its games' rooms; "standings": 0, since the bot
                # reads only a push's status, not the table.
                self.join_id = self.send({"type": "tournament_join", "tournament": self.args.tournament, "standings": 0})
                return
            join = dict({"type": "join"}, **rule_choices(self.args))
            if self.args.room:
                join["room"] = self.args.room
            self.join_id = self.send(join)
        elif kind == "joined":
            self.seat = message.get("seat")
            self.take_rules(message)
            if message.get("room") != self.room:
                # A tournament's next game: a new room, whose games count from 1 again.
                self.room = message.get("room")
                self.memory = Memory()
                self.recorded_game = None
                self.rematch_for = None
        elif kind == "left":
            self.seat = None
        elif kind == "tournament":
            if message.get("name") == self.args.tournament and message.get("status") == "finished":
                self.done = True
        elif kind == "state":
            self.take_rules(message)
            self.observe(message)
        elif kind == "redirect" and message.get("id") == self.join_id and self.seat is None:
            self.follow(message)
        elif kind == "error":
            self.refused(message)
        elif kind == "bye":
            fail("the server said goodbye (%s)" % message.get("reason"))

    def follow(self, redirect):
        """The room is on another instance of the server's cluster: connect there and join again (the join
        is sent once that instance welcomes the hello, as on the first connection)."""
        self.redirects += 1
        if self.redirects > MAX_REDIRECTS:
            fail("sent from instance to instance %d times; giving up" % MAX_REDIRECTS)
        self.sock.close()
        self.buffer = b""
        self.host, self.port = redirect["host"], redirect["port"]
        # A quick match answered by a partner waiting on another instance names the room to join there.
        if redirect.get("request") == "join" and redirect.get("room"):
            self.args.room = redirect["room"]
        self.connect()

    def take_rules(self, message):
        """The room's rules, as its messages carry them: none for a room of the classic game."""
        self.rules = dict(CLASSIC_RULES, **(message.get("rules") or {}))

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
        # A match that leaves no set ends the game in its own state, and an `exhausted` state follows
        # at once to say why: report on that one.
        game_ended = state["phase"] == "over" and event.get("kind") != "match"
        if game_ended and self.recorded_game != state["game"]:
            self.recorded_game = state["game"]
            self.report(state)
            if not self.args.tournament and self.args.games and len(self.results) >= self.args.games:
                self.send({"type": "leave"})
                self.done = True
                return
        if game_ended and not self.args.tournament and self.rematch_for != state["game"]:
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
        card = self.choose(state, self.memory, self.rng, self.rules)
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
        if error.get("id") == self.hello_id:
            hint = " (--password asks for it, or set PAIRS_PASSWORD)" if error.get("code") == "name_taken" else ""
            fail("%s%s" % (error.get("message"), hint))
        if error.get("id") == self.join_id and (self.seat is None or self.args.tournament):
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
        players = state["players"]
        me = players[self.seat] if 0 <= self.seat < len(players) else None
        winner = state.get("winner")
        event = state.get("event") or {}
        if len(players) == 1:
            # A solo game: the board cleared in time (winner 0), or not, and why.
            result = "won" if winner == self.seat else "lost"
            how = {"time_up": "did not clear the board, time's up", "exhausted": "did not clear the board, no set left",
                   "forfeit": "forfeited"}.get(event.get("kind"), "did not clear the board")
            if result == "won":
                how = "cleared the board"
            score = me["score"] if me else 0
            self.results.append(result)
            print("game %d: %s %s, %d point%s (%s)" % (len(self.results), me["name"] if me else self.name, how, score,
                                                       "" if abs(score) == 1 else "s", result), flush=True)
            return
        them = players[1 - self.seat]
        result = "draw" if winner is None else ("won" if winner == self.seat else "lost")
        if event.get("kind") == "forfeit":
            # A server may leave out who forfeited; whoever it was lost.
            seat = event.get("seat", None if winner is None else 1 - winner)
            loser = players[seat] if seat is not None else None
            result += ", %s forfeited" % (loser["name"] if loser else "a player")
        self.results.append(result.split(",")[0])
        print("game %d: %s %d - %d %s (%s)" % (
            len(self.results), me["name"] if me else self.name, me["score"] if me else 0,
            them["score"] if them else 0, them["name"] if them else "nobody", result), flush=True)


def rule_choices(args):
    """The rules chosen on the command line, as a join's fields; the server's defaults fill the rest."""
    choices = {}
    if args.solo:
        choices["seats"] = 1
    for flag, field in (("seats", "seats"), ("match", "match"), ("deck", "deck"), ("scoring", "scoring"),
                        ("flip_cost", "flip_cost"), ("mismatch_penalty", "mismatch_penalty"),
                        ("match_bonus", "match_bonus"), ("game_seconds", "game_seconds"), ("peek_ms", "peek_ms"),
                        ("pairs", "pairs"), ("turn_seconds", "turn_seconds"), ("reveal_ms", "reveal_ms"),
                        ("again_on_match", "again_on_match")):
        value = getattr(args, flag)
        if value is not None:
            choices[field] = value
    return choices


def ranged(low, high):
    """An argparse type: a whole number from low to high."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError("must be a whole number from %d to %d, not '%s'" % (low, high, text))
        return value
    return parse


def boolean(text):
    if text not in ("true", "false"):
        raise argparse.ArgumentTypeError("must be true or false, not '%s'" % text)
    return text == "true"


def read_password(prompt):
    """The password, without showing it on a terminal; from a pipe, its first line."""
    try:
        if sys.stdin.isatty():
            return getpass.getpass(prompt)
        line = sys.stdin.readline()
    except (EOFError, KeyboardInterrupt):
        fail("no password given")
    if not line:
        fail("no password: the input ended before one was given")
    return line.rstrip("\r\n")


def fail(reason):
    print("pairs_bot.py: " + reason, file=sys.stderr, flush=True)
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser(description="A Pairs bot: plays games and prints one line per game.")
    parser.add_argument("--host", default="localhost", help="server host name or address (default localhost)")
    parser.add_argument("--port", type=int, default=7777, help="server port (default 7777)")
    parser.add_argument("--room", help="room to join or create (default: quick match)")
    parser.add_argument("--tournament", help="enter this tournament instead of joining a room: play every game "
                             "it pairs the bot for, and exit when it ends (--games does not count)")
    parser.add_argument("--games", type=int, default=0, help="games to play, then leave (default 0: until stopped)")
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="memory", help="how to pick cards (default memory)")
    parser.add_argument("--name", help="the bot's name (default py-STRATEGY)")
    parser.add_argument("--think-ms", type=int, default=600, help="milliseconds to think before each flip (default 600)")
    parser.add_argument("--seed", type=int, help="seed the bot's choices, to repeat a run")
    parser.add_argument("--password", action="store_true",
                        help="claim the name (or prove it is the bot's) with a password, asked for without showing "
                             "it; only games between claimed names are rated. Scripts set PAIRS_PASSWORD instead")
    rules = parser.add_argument_group("the room's rules, if the bot creates it (default: the server's)")
    rules.add_argument("--solo", action="store_true", help="one player against the board (same as --seats 1)")
    rules.add_argument("--seats", type=ranged(1, 2), help="1 (solo) or 2 players")
    rules.add_argument("--match", type=ranged(2, 3), help="cards per set, turned per turn: 2 or 3")
    rules.add_argument("--deck", choices=["words", "cards"], help="words, or a 52-card deck (rank match 4, suit match 1)")
    rules.add_argument("--scoring", choices=["classic", "matchismo"], help="a point per set, or Matchismo's costs and bonus")
    rules.add_argument("--flip-cost", type=ranged(0, 100), help="matchismo: points a flip costs")
    rules.add_argument("--mismatch-penalty", type=ranged(0, 100), help="matchismo: points a mismatch costs")
    rules.add_argument("--match-bonus", type=ranged(0, 100), help="matchismo: a match earns N times its value")
    rules.add_argument("--game-seconds", type=ranged(0, 3600), help="a clock for the whole game, 0 for none")
    rules.add_argument("--peek-ms", type=ranged(0, 10000), help="show every face this long before play")
    rules.add_argument("--pairs", type=ranged(2, 32), help="sets on the board")
    rules.add_argument("--turn-seconds", type=ranged(0, 3600), help="seconds per turn, 0 for no clock")
    rules.add_argument("--reveal-ms", type=ranged(0, 60000), help="milliseconds a mismatch stays face up")
    rules.add_argument("--again-on-match", type=boolean, help="a match earns another turn (true or false)")
    args = parser.parse_args()
    if args.games < 0:
        parser.error("--games must be 0 or more")
    if not 0 <= args.think_ms <= 10000:
        parser.error("--think-ms must be 0-10000")
    if args.solo and args.seats == 2:
        parser.error("--solo and --seats 2 contradict each other")
    costs = (args.flip_cost, args.mismatch_penalty, args.match_bonus)
    if args.scoring != "matchismo" and any(cost is not None for cost in costs):
        parser.error("--flip-cost, --mismatch-penalty and --match-bonus go with --scoring matchismo")
    bot = Bot(args)
    bot.password = os.environ.get("PAIRS_PASSWORD") or None
    if bot.password is None and args.password:
        bot.password = read_password("password for %s: " % bot.name)
    stopped = False
    try:
        bot.run()
    except KeyboardInterrupt:
        stopped = True
    except OSError as error:
        fail("the connection failed: %s" % (error.strerror or error))
    # Stopped with Ctrl-C, the total is said even before a game has ended, as pairs bot says it.
    if bot.results or stopped:
        count = len(bot.results)
        print("total: %d game%s, %d won, %d lost, %d drawn" % (
            count, "" if count == 1 else "s", bot.results.count("won"), bot.results.count("lost"),
            bot.results.count("draw")), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The phase table of Here Comes the Dog: for each phase, plain functions prompt / check / apply /
legal of the state. Set-up by team buttons, a turn (roll or exchange), choosing a take, the two
steps of a theft, and the ends of rounds and of the game. Decisions beside the rulebook's words
are in docs/rules/dog.md.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, product

from games.core import (
    OK,
    SLOTS,
    TEAM_COLOURS,
    Choose,
    Effect,
    GameOver,
    IllegalInput,
    Input,
    Light,
    Outcomes,
    Press,
    Prompt,
    Say,
    Sound,
    say,
)
from games.dog import events
from games.dog.data import BONFIRE, DOGS, LED_COLOURS, MAX_PLAYERS, MIN_PLAYERS, VILLAGERS
from games.dog.dice import classify, load_dice, read_roll, roll_requests
from games.dog.state import (
    BONFIRE_AT,
    CHARCOAL,
    COLOURS,
    CURRENT,
    EXCHANGE,
    FIRE,
    HANDS,
    LOG,
    MEAT,
    MUST_ROLL,
    NO_STICKS,
    OFFERS,
    OVER,
    PHASE,
    PICK,
    ROLL_AT,
    ROLLS_AT,
    ROUND,
    STEAL,
    TAKE,
    TURN,
    VICTIM,
    VICTIM_AT,
    DogState,
    Sticks,
    add,
    evolve,
    log_line,
    logged,
    remade,
    sub,
)

_new = tuple.__new__  # `remade(fields)` written out in the hottest transitions: _new(DogState, fields)
DICE = load_dice()
ROLL = roll_requests(DICE)
INDEX = {colour: i for i, colour in enumerate(COLOURS)}
# every outcome of the three dice (face indices, as journaled) -> the colours showing
DIE_A, DIE_B, DIE_C = (request.name for request in ROLL)
ROLLS: dict[tuple[int, int, int], tuple[str, ...]] = {
    (a, b, c): read_roll(DICE, {DIE_A: a, DIE_B: b, DIE_C: c})
    for a in range(len(DICE[0].faces)) for b in range(len(DICE[1].faces)) for c in range(len(DICE[2].faces))
}

PRESS = {colour: Press(colour) for colour in TEAM_COLOURS}
PRESS_OK = Press(OK)
HOLD_OK = Press(OK, hold=True)
ALARM = Sound("alarm")
TEAM_PATTERNS = {colour: f"press:{colour}" for colour in TEAM_COLOURS}

# "charcoal to meat, fire to meat, and fire to charcoal"; the reverse ones are named so that a
# dashboard asking for them hears the rulebook's reason.
EXCHANGES: tuple[str, ...] = ("charcoal-meat", "fire-meat", "fire-charcoal")
REVERSED: tuple[str, ...] = ("meat-charcoal", "meat-fire", "charcoal-fire")
def _exchange_delta(name: str) -> Sticks:
    give, _, get = name.partition("-")
    delta = [0, 0, 0]
    delta[INDEX[get]] += 1
    delta[INDEX[give]] -= 1
    return (delta[0], delta[1], delta[2])


EXCHANGE_DELTAS = {x: _exchange_delta(x) for x in EXCHANGES}
EXCHANGE_CHOICES = {x: Choose(f"exchange:{x}") for x in EXCHANGES}
TURN_ACCEPTS = ("press:ok", "hold:ok", *(f"choose:exchange:{x}" for x in (*EXCHANGES, *REVERSED)))
ROLL_ONLY = ("press:ok",)


def _delta(name: str) -> Sticks:
    counts = [0, 0, 0]
    for colour in name.split("+"):
        counts[INDEX[colour]] += 1
    return (counts[0], counts[1], counts[2])


TAKES: dict[str, Sticks] = {}
for _a in COLOURS:
    TAKES[_a] = _delta(_a)
    for _b in COLOURS[INDEX[_a]:]:
        TAKES[f"{_a}+{_b}"] = _delta(f"{_a}+{_b}")


@lru_cache(maxsize=512)
def offer_say(stem: str, team: str, name: str) -> Say:
    """A take in words: `<stem>_two` (a and b), `_pair` (two of a), `_one` (one a)."""
    a, _, b = name.partition("+")
    if not b:
        return say(f"{stem}_one", team=team, a=a)
    return say(f"{stem}_pair", team=team, a=a) if a == b else say(f"{stem}_two", team=team, a=a, b=b)


# --- set-up ---------------------------------------------------------------------------------


def start(teams: tuple[str, ...], rounds: int) -> DogState:
    """The first turn: "bonfire meat 9 / charcoal 7 / fire 5", 3 villagers each, 25 dogs."""
    n = len(teams)
    return DogState(phase=TURN, teams=teams, rounds=rounds, bonfire=BONFIRE, pack=DOGS, hands=(NO_STICKS,) * n,
                    dogs=(0,) * n, villagers=(VILLAGERS,) * n, faints=(0,) * n)


def order_prompt(s: DogState) -> Prompt:
    lights = tuple(c for c in TEAM_COLOURS if c not in s.teams) if len(s.teams) < MAX_PLAYERS else ()
    return Prompt(say("order_prompt", players=len(s.teams)), accepts=(*TEAM_PATTERNS.values(), "press:ok"),
                  lights=(*lights, OK) if len(s.teams) >= MIN_PLAYERS else lights)


def order_check(s: DogState, inp: Input) -> tuple:
    assert isinstance(inp, Press)
    if inp.button == OK:
        if len(s.teams) < MIN_PLAYERS:
            raise IllegalInput("too_few_players", {"min": MIN_PLAYERS, "players": len(s.teams)})
        return ()
    if inp.button in s.teams:
        raise IllegalInput("already_in_order", {"team": inp.button, "place": s.teams.index(inp.button) + 1})
    if len(s.teams) >= MAX_PLAYERS:
        raise IllegalInput("too_many_players", {"max": MAX_PLAYERS, "team": inp.button})
    return ()


def order_apply(s: DogState, inp: Input, outcomes: Outcomes) -> tuple[DogState, list[Effect]]:
    assert isinstance(inp, Press)
    if inp.button != OK:
        teams = (*s.teams, inp.button)
        return evolve(s, teams=teams), [say("player_joined", team=inp.button, place=len(teams))]
    first = start(s.teams, s.rounds)
    names = {f"x{i + 1}": t for i, t in enumerate(s.teams)}
    line = say(f"play_order_{len(s.teams)}", **names)
    return evolve(first, log=(line,)), [line, say("round_begins", round=1, team=first.team())]


def order_legal(s: DogState) -> list[Input]:
    legal: list[Input] = [PRESS[c] for c in TEAM_COLOURS if c not in s.teams] if len(s.teams) < MAX_PLAYERS else []
    return [*legal, PRESS_OK] if len(s.teams) >= MIN_PLAYERS else legal


# --- a turn: roll or exchange ---------------------------------------------------------------


def turn_prompt(s: DogState) -> Prompt:
    return _turn_prompt(s.teams[s.current], s.round, s.must_roll)


@lru_cache(maxsize=256)
def _turn_prompt(team: str, round: int, must_roll: bool) -> Prompt:
    if must_roll:
        return Prompt(say("roll_again", team=team), accepts=ROLL_ONLY, lights=(team, OK))
    return Prompt(say("turn_prompt", team=team, round=round), accepts=TURN_ACCEPTS, lights=(team, OK))


def exchange_refusal(s: DogState, name: str) -> tuple[str, dict] | None:
    """Why the current player may not make this exchange now (None: they may)."""
    give, _, get = name.partition("-")
    params = {"team": s.teams[s.current], "give": give, "get": get}
    if name not in EXCHANGES:
        return "exchange_not_mutual", params
    if s.hands[s.current][INDEX[give]] == 0:
        return "exchange_no_stick", params
    left = s.bonfire[INDEX[get]]
    if left == 0:
        return "exchange_bonfire_empty", params
    if left == 1 and get in ("meat", "charcoal"):
        return "exchange_ends_round", params
    return None


def legal_exchanges(s: DogState) -> tuple[str, ...]:
    return _legal_exchanges(s.hands[s.current], s.bonfire)


def _legal_exchanges(hand: Sticks, bonfire: Sticks) -> tuple[str, ...]:
    """The exchanges a hand may make with a bonfire (see exchange_refusal): the hand holds the stick
    to give, and the bonfire has the one to get beyond the last meat or charcoal (taking that would
    end the round). Not cached: a hand and a bonfire seldom come back."""
    return tuple([name for name, give, get, keep in EXCHANGE_SIDES if hand[give] and bonfire[get] > keep])


# each exchange: (name, colour given, colour got, sticks of it the bonfire must keep) as indices
EXCHANGE_SIDES = tuple((name, INDEX[give], INDEX[get], 0 if get == "fire" else 1)
                       for name in EXCHANGES for give, _, get in [name.partition("-")])


def turn_check(s: DogState, inp: Input) -> tuple:
    if isinstance(inp, Press):
        if not inp.hold:
            return ROLL
        if not legal_exchanges(s):
            keys = {r[0] for r in (exchange_refusal(s, x) for x in EXCHANGES) if r}
            key = ("no_exchange_sticks" if keys == {"exchange_no_stick"}
                   else "no_exchange_ends_round" if "exchange_ends_round" in keys else "no_exchange_bonfire")
            raise IllegalInput(key, {"team": s.teams[s.current]})
        return ()
    assert isinstance(inp, Choose)
    refusal = exchange_refusal(s, inp.option.partition(":")[2])
    if refusal:
        raise IllegalInput(*refusal)
    return ()


def turn_apply(s: DogState, inp: Input, outcomes: Outcomes) -> tuple[DogState, list[Effect]]:
    if type(inp) is Press and not inp.hold:  # a roll, by far the most common input
        return rolled_row(s, ROLL_TABLE[(outcomes[DIE_A] * FACES_B + outcomes[DIE_B]) * FACES_C + outcomes[DIE_C]])
    if isinstance(inp, Choose):
        return exchange(s, inp.option.partition(":")[2])
    assert isinstance(inp, Press)
    return evolve(s, phase=EXCHANGE, offers=legal_exchanges(s), pick=0), []


def turn_legal(s: DogState) -> list[Input]:
    if s.must_roll:
        return [PRESS_OK]
    return list(turn_choices(s.hands[s.current], s.bonfire))


@lru_cache(maxsize=8192)
def turn_choices(hand: Sticks, bonfire: Sticks) -> tuple[Input, ...]:
    """Roll, or exchange (hold OK to cycle the offers, or choose one): cached per hand and bonfire,
    at most 10*8*6 bonfires times the hands beside them."""
    offers = _legal_exchanges(hand, bonfire)
    if not offers:
        return (PRESS_OK,)
    return (PRESS_OK, HOLD_OK, *(EXCHANGE_CHOICES[x] for x in offers))


# --- exchanging -----------------------------------------------------------------------------


def exchange_prompt(s: DogState) -> Prompt:
    team = s.teams[s.current]
    give, _, get = s.offers[s.pick].partition("-")
    return Prompt(say("exchange_offer", team=team, give=give, get=get), accepts=(TEAM_PATTERNS[team], "press:ok"),
                  lights=(team, OK))


def cycle_check(s: DogState, inp: Input) -> tuple:
    return ()


def exchange_apply(s: DogState, inp: Input, outcomes: Outcomes) -> tuple[DogState, list[Effect]]:
    assert isinstance(inp, Press)
    if inp.button != OK:
        return evolve(s, pick=(s.pick + 1) % len(s.offers)), []
    return exchange(s, s.offers[s.pick])


def cycle_legal(s: DogState) -> list[Input]:
    return [PRESS[s.teams[s.current]], PRESS_OK]


def exchange(s: DogState, name: str) -> tuple[DogState, list[Effect]]:
    """One stick from the hand to the bonfire for one of another colour; the turn is over."""
    d = EXCHANGE_DELTAS[name]
    i = s.current
    held = [*s.hands]
    held[i] = add(held[i], d)
    line = EXCHANGED[s.teams[i]][name]
    fields = [*s]
    fields[HANDS], fields[BONFIRE_AT] = tuple(held), sub(s.bonfire, d)
    fields[LOG] = log_line(s.log, line)
    j = (i + 1) % len(held)  # the next player, unless knocked out
    return turn_of(fields, j if s.faints[j] < 3 else next_active(s, i)), [line]


def exchanged_say(team: str, name: str) -> Say:
    """The line of an exchange."""
    give, _, get = name.partition("-")
    return say("exchanged", team=team, give=give, get=get)


# team -> exchange -> its line, made once
EXCHANGED = {t: {name: exchanged_say(t, name) for name in EXCHANGES} for t in TEAM_COLOURS}


# --- rolling --------------------------------------------------------------------------------


@lru_cache(maxsize=8192)
def take_offers(bonfire: Sticks, roll: tuple[str, ...]) -> tuple[str, ...]:
    """The takes a roll allows: two of the dice's colours ("choose 2 from the 3 colors"), or one
    stick when a colour shown is gone from the bonfire ("take 1 stick only")."""
    shown = sorted(set(roll), key=INDEX.__getitem__)
    if any(bonfire[INDEX[c]] == 0 for c in shown):
        return tuple(c for c in shown if bonfire[INDEX[c]] > 0)
    offers: list[str] = []
    for a, b in combinations(sorted(roll, key=INDEX.__getitem__), 2):
        name = f"{a}+{b}"
        need = TAKES[name]
        if name not in offers and all(bonfire[k] >= need[k] for k in range(3)):
            offers.append(name)
    return tuple(offers)


def _shown(roll: tuple[str, ...]) -> tuple[tuple[Effect, ...], str]:
    """The sound, words and slot LEDs of a roll, and what it means (take, theft or an incident)."""
    a, b, c = roll
    return (Sound("dice"), say("dice_rolled", a=a, b=b, c=c), Light("slot:A", LED_COLOURS[a]),
            Light("slot:B", LED_COLOURS[b]), Light("slot:C", LED_COLOURS[c])), classify(roll)


# every roll the dice can show -> (its sound, words and slot LEDs; what it means)
SHOWN: dict[tuple[str, ...], tuple[tuple[Effect, ...], str]] = {roll: _shown(roll) for roll in set(ROLLS.values())}



def rolled_say(team: str, roll: tuple[str, ...]) -> Say:
    """The log's line for a roll."""
    return say("rolled", team=team, a=roll[0], b=roll[1], c=roll[2])


# A roll's row: the colours, the effects that show it, what it means, its takes by bonfire
# (filled as bonfires come: at most 10 x 8 x 6 of them per roll, so the cache is bounded) and
# its log line by team.
RollRow = tuple[tuple[str, ...], tuple[Effect, ...], str, dict[Sticks, tuple[str, ...]], dict[str, Say]]
ROLL_ROWS: dict[tuple[str, ...], RollRow] = {
    roll: (roll, *SHOWN[roll], {}, {t: rolled_say(t, roll) for t in TEAM_COLOURS}) for roll in SHOWN}
# every outcome of the three dice by (a * faces of B + b) * faces of C + c -> its roll's row
FACES_B, FACES_C = len(DICE[1].faces), len(DICE[2].faces)
ROLL_TABLE: tuple[RollRow, ...] = tuple(ROLL_ROWS[ROLLS[key]] for key in sorted(ROLLS))


def any_victim(s: DogState) -> bool:
    """Whether another player still in holds a stick (`thieves_victims` is not empty)."""
    faints, hands = s.faints, s.hands
    for i in OTHERS[len(hands)][s.current]:
        if hands[i] != NO_STICKS and faints[i] < 3:
            break
    else:
        return False
    return True


def steal_choices(s: DogState) -> list[Choose]:
    """`victim_choices(s, thieves_victims(s))` in one pass: a hand with nothing gives nothing."""
    cur, faints, teams = s.current, s.faints, s.teams
    choices: list[Choose] = []
    for i, hand in enumerate(s.hands):
        if i != cur and faints[i] < 3:
            choices += _steals(teams[i], hand)
    return choices


def steal_options(s: DogState) -> list[tuple[int, str]]:
    """(victim, colour) for each of `steal_choices(s)`, in the same order."""
    faints, hands = s.faints, s.hands
    options: list[tuple[int, str]] = []
    for i in OTHERS[len(hands)][s.current]:
        if faints[i] < 3:
            options += HELD[i][hands[i]]
    return options


def _held(i: int, hand: Sticks) -> tuple[tuple[int, str], ...]:
    """(i, colour) for each colour this hand holds."""
    return tuple((i, c) for c, n in zip(COLOURS, hand, strict=True) if n)


# every hand there can be (at most the whole bonfire: 10 x 8 x 6 of them) -> its `_held`, for
# each place in the play order: a plain dict, made once (no cache to call on every theft)
EVERY_HAND: tuple[Sticks, ...] = tuple(product(range(BONFIRE[MEAT] + 1), range(BONFIRE[CHARCOAL] + 1),
                                               range(BONFIRE[FIRE] + 1)))
HELD: tuple[dict[Sticks, tuple[tuple[int, str], ...]], ...] = tuple(
    {hand: _held(i, hand) for hand in EVERY_HAND} for i in range(MAX_PLAYERS))
# players -> place -> the other places, in play order
OTHERS = {n: tuple(tuple(j for j in range(n) if j != i) for i in range(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}


def thieves_victims(s: DogState) -> list[int]:
    cur, faints, hands = s.current, s.faints, s.hands
    return [i for i in range(len(hands)) if i != cur and faints[i] < 3 and hands[i] != NO_STICKS]


def rolled(s: DogState, roll: tuple[str, ...]) -> tuple[DogState, list[Effect]]:
    """Show the dice, then: a take, a theft, or an incident (and the same player rolls again)."""
    return rolled_row(s, ROLL_ROWS[roll])


def rolled_row(s: DogState, row: RollRow) -> tuple[DogState, list[Effect]]:
    """`rolled` from the roll's row of ROLL_TABLE (its meaning and effects worked out once)."""
    roll, shown, kind, offers_by_bonfire, rolled_lines = row
    effects = [*shown]
    n = s.rolls + 1
    if kind == "take":
        bonfire = s.bonfire
        offers = offers_by_bonfire.get(bonfire)
        if offers is None:
            offers = offers_by_bonfire[bonfire] = take_offers(bonfire, roll)
        if offers:
            fields = [*s]
            fields[PHASE] = TAKE
            fields[ROLL_AT] = roll
            fields[OFFERS] = offers
            fields[PICK] = 0
            fields[MUST_ROLL] = False
            fields[ROLLS_AT] = n
            return _new(DogState, fields), effects
        effects.append(NOTHING_TO_TAKE[s.teams[s.current]])
        return evolve(s, roll=roll, rolls=n, must_roll=True), effects
    team = s.teams[s.current]
    line = rolled_lines[team]
    if kind == "theft":
        effects.append(THEFT[team])
        fields = [*s]
        fields[ROLL_AT] = roll
        fields[ROLLS_AT] = n
        if not any_victim(s):
            nobody = THEFT_NOBODY[team]
            effects.append(nobody)
            fields[MUST_ROLL] = True
            fields[LOG] = logged(s.log, [line, nobody])
            return _new(DogState, fields), effects
        fields[PHASE] = VICTIM
        fields[MUST_ROLL] = False
        fields[LOG] = log_line(s.log, line)
        return _new(DogState, fields), effects
    return incident(s, kind, effects, line, roll, n)


def team_says(key: str) -> dict[str, Say]:
    """A line naming only a team, for each team, made once."""
    return {t: say(key, team=t) for t in TEAM_COLOURS}


THEFT, THEFT_NOBODY, NOTHING_TO_TAKE, ROLL_AGAIN = (team_says(key) for key in
                                                   ("theft", "theft_nobody", "nothing_to_take", "roll_again"))


def incident(s: DogState, kind: str, effects: list[Effect], line: Say, roll: tuple[str, ...],
             rolls: int) -> tuple[DogState, list[Effect]]:
    """Feed, Assault or Fire Fest for every player; then the same player rolls again. `roll` is
    the roll that showed the incident, the game's `rolls`-th."""
    named = INCIDENT_LINES[kind]
    effects += [ALARM, named]
    lines: list[Say] = [line, named]
    if not events.countable(s, kind):
        lines.append(NOBODY_COUNTED)
    elif kind == "feed":
        s, more = events.feed(s, incident=True)
        lines += more
    elif kind == "assault":
        s, more = events.assault(s, incident=True)
        lines += more
    else:
        s, more = events.fire_fest(s)
        lines += more
    effects += lines[2:]
    fields = [*s]
    fields[MUST_ROLL], fields[LOG], fields[ROLL_AT], fields[ROLLS_AT] = True, logged(s.log, lines), roll, rolls
    if not events.active(s):
        return game_over(remade(fields), effects)
    if s.out(s.current):
        return turn_of(fields, next_active(s, s.current)), effects
    effects.append(ROLL_AGAIN[s.teams[s.current]])
    return _new(DogState, fields), effects


INCIDENT_LINES = {kind: say(f"incident_{kind}") for kind in ("feed", "assault", "fire_fest")}
NOBODY_COUNTED = say("nobody_counted")


# --- taking ---------------------------------------------------------------------------------


def take_prompt(s: DogState) -> Prompt:
    return _take_prompt(s.teams[s.current], s.offers, s.pick)


@lru_cache(maxsize=1024)
def _take_prompt(team: str, offers: tuple[str, ...], pick: int) -> Prompt:
    return Prompt(offer_say("take_offer", team, offers[pick]),
                  accepts=(TEAM_PATTERNS[team], "press:ok", *(f"choose:take:{o}" for o in offers)),
                  lights=(team, OK))


def take_apply(s: DogState, inp: Input, outcomes: Outcomes) -> tuple[DogState, list[Effect]]:
    if type(inp) is Choose:
        return take(s, inp.option[5:])  # "take:<name>", as take_choices lists it and the prompt accepts
    assert isinstance(inp, Press)
    if inp.button != OK:
        return evolve(s, pick=(s.pick + 1) % len(s.offers)), []
    return take(s, s.offers[s.pick])


def take_legal(s: DogState) -> list[Input]:
    return list(take_choices(s.teams[s.current], s.offers))


@lru_cache(maxsize=1024)
def take_choices(team: str, offers: tuple[str, ...]) -> tuple[Input, ...]:
    return (PRESS[team], PRESS_OK, *(Choose(f"take:{o}") for o in offers))


def take(s: DogState, name: str) -> tuple[DogState, list[Effect]]:
    """Move the sticks; if meat or charcoal is now all taken, the round ends at once."""
    dm, dc, df = TAKES[name]
    i = s.current
    held = [*s.hands]
    m, c, f = held[i]
    held[i] = (m + dm, c + dc, f + df)
    m, c, f = s.bonfire
    bonfire = (m - dm, c - dc, f - df)
    line = TOOK[s.teams[i]][name]
    fields = [*s]  # the new state's fields, set one by one (cheaper than update(**))
    fields[HANDS] = tuple(held)
    fields[BONFIRE_AT] = bonfire
    fields[LOG] = log_line(s.log, line)
    if not bonfire[MEAT] or not bonfire[CHARCOAL]:
        return round_end(remade(fields), [line])
    j = (i + 1) % len(held)  # the next player, unless knocked out
    return turn_of(fields, j if s.faints[j] < 3 else next_active(s, i)), [line]


# team -> take -> its line, made once
TOOK: dict[str, dict[str, Say]] = {t: {name: offer_say("took", t, name) for name in TAKES} for t in TEAM_COLOURS}


# --- theft ----------------------------------------------------------------------------------


def victim_prompt(s: DogState) -> Prompt:
    """The victim's team button (then the colour), or a dashboard's one-step `steal:<victim>:<colour>`."""
    team = s.teams[s.current]
    others = [s.teams[i] for i in range(len(s.teams)) if i != s.current and s.faints[i] < 3]
    victims = thieves_victims(s)
    lights = tuple(s.teams[i] for i in victims)
    choices = tuple(f"choose:{choice.option}" for choice in victim_choices(s, victims))
    return Prompt(say("theft_victim", team=team), accepts=(*(TEAM_PATTERNS[t] for t in others), *choices),
                  lights=lights)


def victim_choices(s: DogState, victims: list[int]) -> list[Choose]:
    """`steal:<victim>:<colour>` for every colour every possible victim holds."""
    teams, hands = s.teams, s.hands
    choices: list[Choose] = []
    for i in victims:
        choices += _steals(teams[i], hands[i])
    return choices


@lru_cache(maxsize=4096)
def _steals(team: str, hand: Sticks) -> tuple[Choose, ...]:
    """What a thief may take from this hand (6 teams x at most 10*8*6 hands: 2,880 keys)."""
    return tuple(VICTIM_CHOICES[team, c] for c, n in zip(COLOURS, hand, strict=True) if n)


VICTIM_CHOICES = {(t, c): Choose(f"steal:{t}:{c}") for t in TEAM_COLOURS for c in COLOURS}
VICTIM_OPTIONS = {choice.option: key for key, choice in VICTIM_CHOICES.items()}  # "steal:<t>:<c>" -> (t, c)


def victim_check(s: DogState, inp: Input) -> tuple:
    if isinstance(inp, Choose):
        _, victim, colour = inp.option.split(":")
        i = s.teams.index(victim)
        if not s.hands[i][INDEX[colour]]:
            raise IllegalInput("nothing_to_steal", {"team": victim})
        return ()
    assert isinstance(inp, Press)
    if not any(s.hands[s.teams.index(inp.button)]):
        raise IllegalInput("nothing_to_steal", {"team": inp.button})
    return ()


def victim_apply(s: DogState, inp: Input, outcomes: Outcomes) -> tuple[DogState, list[Effect]]:
    if type(inp) is Choose:
        named, colour = VICTIM_OPTIONS[inp.option]
        return steal(s, colour, s.teams.index(named))
    assert isinstance(inp, Press)
    victim = s.teams.index(inp.button)
    held = tuple(c for c in COLOURS if s.hands[victim][INDEX[c]] > 0)
    return evolve(s, phase=STEAL, victim=victim, offers=held, pick=0), []


def victim_legal(s: DogState) -> list[Input]:
    victims = thieves_victims(s)
    return [*(PRESS[s.teams[i]] for i in victims), *victim_choices(s, victims)]


def steal_prompt(s: DogState) -> Prompt:
    team = s.teams[s.current]
    return Prompt(say("steal_offer", team=team, victim=s.teams[s.victim], colour=s.offers[s.pick]),
                  accepts=(TEAM_PATTERNS[team], "press:ok", *(f"choose:steal:{c}" for c in s.offers)),
                  lights=(team, OK))


def steal_apply(s: DogState, inp: Input, outcomes: Outcomes) -> tuple[DogState, list[Effect]]:
    if isinstance(inp, Choose):
        return steal(s, inp.option.partition(":")[2])
    assert isinstance(inp, Press)
    if inp.button != OK:
        return evolve(s, pick=(s.pick + 1) % len(s.offers)), []
    return steal(s, s.offers[s.pick])


def steal_legal(s: DogState) -> list[Input]:
    return [PRESS[s.teams[s.current]], PRESS_OK, *(STEAL_CHOICES[c] for c in s.offers)]


STEAL_CHOICES = {c: Choose(f"steal:{c}") for c in COLOURS}


def stole_say(team: str, victim: str, colour: str) -> Say:
    """The line of a theft."""
    return say("stole", team=team, victim=victim, colour=colour)


STOLE = {(t, v, c): stole_say(t, v, c) for t in TEAM_COLOURS for v in TEAM_COLOURS for c in COLOURS}


def steal(s: DogState, colour: str, victim: int | None = None) -> tuple[DogState, list[Effect]]:
    """One stick of `colour` from the victim's hand (`s.victim` unless named) to the thief's; the
    turn is over."""
    v = s.victim if victim is None else victim
    i = s.current
    dm, dc, df = TAKES[colour]
    hands = [*s.hands]
    m, c, f = hands[i]
    hands[i] = (m + dm, c + dc, f + df)
    m, c, f = hands[v]
    hands[v] = (m - dm, c - dc, f - df)
    teams = s.teams
    line = STOLE[teams[i], teams[v], colour]
    fields = [*s]
    fields[HANDS] = tuple(hands)
    fields[VICTIM_AT] = -1
    fields[LOG] = log_line(s.log, line)
    j = (i + 1) % len(hands)  # the next player, unless knocked out
    return turn_of(fields, j if s.faints[j] < 3 else next_active(s, i)), [line]


# --- turns, rounds and the end --------------------------------------------------------------


def next_active(s: DogState, i: int) -> int:
    """The next player after i still in (i itself when nobody else is)."""
    faints = s.faints
    n = len(faints)
    for step in range(1, n + 1):
        j = (i + step) % n
        if faints[j] < 3:
            return j
    return i


def next_turn(s: DogState) -> DogState:
    return turn_of([*s], next_active(s, s.current))


def turn_of(fields: list[object], current: int) -> DogState:
    """The state of `fields` with the turn passed to `current` (a fresh turn: roll or exchange)."""
    fields[PHASE], fields[CURRENT], fields[MUST_ROLL], fields[OFFERS], fields[PICK] = TURN, current, False, (), 0
    return _new(DogState, fields)


def round_end(s: DogState, effects: list[Effect]) -> tuple[DogState, list[Effect]]:
    """Feed (meat all taken), Assault (charcoal all taken) or no event (both); sticks return;
    the player after the one who ended the round begins the next; after the last round, the end."""
    meat_out, charcoal_out = s.bonfire[MEAT] == 0, s.bonfire[CHARCOAL] == 0
    if meat_out and charcoal_out:
        lines: list[Say] = [round_line("round_end_none", s.round, s.teams[s.current])]
    elif meat_out:
        s, more = events.feed(s, incident=False)
        lines = [round_line("round_end_feed", s.round, s.teams[s.current]), *more]
    else:
        s, more = events.assault(s, incident=False)
        lines = [round_line("round_end_assault", s.round, s.teams[s.current]), *more]
    effects = [*effects, ALARM, *lines]
    fields = [*s]
    fields[BONFIRE_AT] = BONFIRE
    fields[HANDS] = (NO_STICKS,) * len(s.teams)
    if s.round >= s.rounds or not events.active(s):
        fields[LOG] = logged(s.log, lines)
        return game_over(remade(fields), effects)
    current = next_active(s, s.current)
    begins = round_line("round_begins", s.round + 1, s.teams[current])
    lines.append(begins)
    fields[LOG] = logged(s.log, lines)
    fields[ROUND] = s.round + 1
    effects.append(begins)
    return turn_of(fields, current), effects


@lru_cache(maxsize=1024)
def round_line(key: str, round: int, team: str) -> Say:
    """A line naming a round and a team, made once (4 keys x 20 rounds x 6 teams at most)."""
    return say(key, round=round, team=team)


def ranking(s: DogState) -> list[tuple[int, int, str]]:
    """(dogs, standing villagers, team), best first: "the total number of dogs tamed. If the
    numbers are even, decide the winner by the number of active villagers"."""
    return sorted(((s.dogs[i], s.villagers[i], t) for i, t in enumerate(s.teams)),
                  key=lambda r: (-r[0], -r[1]))


def game_over(s: DogState, effects: list[Effect]) -> tuple[DogState, list[Effect]]:
    ranked = ranking(s)
    standings = [standing_line(t, d, v) for d, v, t in ranked]
    if not events.active(s):
        winners: tuple[str, ...] = ()
        reason, verdict = "all_knocked_out", say("all_knocked_out")
    else:
        best = ranked[0][:2]
        winners = tuple(t for d, v, t in ranked if (d, v) == best)
        reason = "rounds_played"
        names = {f"x{i + 1}": t for i, t in enumerate(winners)}
        verdict = say(f"winner_{len(winners)}" if len(winners) > 1 else "winner", **names, dogs=best[0],
                      villagers=best[1])
    lines = [*standings, verdict]
    over = evolve(s, phase=OVER, result=reason, winners=winners, offers=(), log=logged(s.log, lines))
    return over, [*effects, *lines, *LIGHTS_OFF, FANFARE, GameOver(reason, winners)]


@lru_cache(maxsize=1024)
def standing_line(team: str, dogs: int, villagers: int) -> Say:
    """A player's place at the end, made once per (team, dogs, villagers)."""
    return say("standing", team=team, dogs=dogs, villagers=villagers)


LIGHTS_OFF = tuple(Light(f"slot:{slot}", "off") for slot in SLOTS)
FANFARE = Sound("fanfare")

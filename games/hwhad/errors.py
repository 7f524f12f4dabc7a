"""Inputs the box refuses in Houston, We Have a Dolphin!, grouped by what went wrong.

Each class is an `IllegalInput` (so the box answers it like any refusal) and each raise names the
message key the box speaks; the class says which kind of mistake the table made, so tests and
displays can tell a wrong team from a wrong card without reading keys.
"""

from __future__ import annotations

from games.core import IllegalInput


class CrewRefused(IllegalInput):
    """Crewing: too few or too many teams, a team joining twice, an astronaut scanned as a badge
    (need_teams, too_many_teams, already_joined, scan_badge_first)."""


class CardNotInDeal(IllegalInput):
    """Boarding: a card dealt already or not in this game's deck (already_dealt, not_in_this_game)."""


class CardNotInHand(IllegalInput):
    """A scanned astronaut that is not where the rules need it: not in the acting team's hand, in
    no hand, not the open module's astronaut (not_in_team_hand, not_in_a_hand, not_module_card)."""


class SlotTaken(IllegalInput):
    """A spacewalk scan of an astronaut already out on this spacewalk (already_on_spacewalk)."""


class WrongTeam(IllegalInput):
    """A team that may not act now: calling itself or the captain's team, a team that would leave
    the spacewalk unfillable, a non-candidate, a non-voter, a team other than the deciding one, the
    captain threatening their own team or a team without astronauts (captain_calls_other,
    no_calling_yourself, no_team_next, not_a_candidate, not_a_voter, only_team_decides,
    cannot_threaten_own, team_has_no_astronauts)."""


class OrderRefused(IllegalInput):
    """A captain's order the ship does not allow now (reset_needs_modules, no_one_to_sacrifice)."""


class NotEnoughTokens(IllegalInput):
    """A vote press beyond the tokens the team holds (not_enough_tokens)."""

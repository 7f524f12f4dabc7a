"""A plain card whose field differs from its white mostly in colour (yellow, orange) is aligned and
compared in the colour channel where its face has the most contrast (stop 48): in grey such a
card is a faint emblem under the light falling across it, so ECC followed the light and the
aligned view stayed under the bar that lets a patch be judged."""

from __future__ import annotations

from device.hardware.vision.identifier import Identifier, Thresholds
from device.hardware.vision.references import ReferenceSet
from tests.support.text_frames import named_plain_cards


def _channels(idf: Identifier) -> dict[str, int]:
    return {idf.labels[c][1]: ch for c, ch in idf._badge_channel.items()}


def test_each_plain_card_gets_the_view_its_own_face_has_contrast_in(text_refs: ReferenceSet) -> None:
    """Measured on the enrolled faces, nothing named: blue (BGR channel 0) for a yellow or orange
    field beside white; grey for a grey field (no colour at all) and for red, green and blue
    fields, whose grey contrast is already within the factor of the best channel's."""
    channels = _channels(Identifier([text_refs]))
    assert channels["plain-yellow-square"] == 0 and channels["plain-orange-bar"] == 0
    for card in ("plain-red-square", "plain-blue-triangle", "plain-green-bar"):
        assert channels[card] == -1, card
    assert channels.get("plain-grey-triangle", -1) == -1
    assert set(_channels(Identifier([text_refs], Thresholds(badge_channel_gain=0.0))).values()) == {-1}


def test_yellow_and_orange_plain_cards_are_named_more_often_and_never_as_another(text_refs: ReferenceSet) -> None:
    grey = Identifier([text_refs], Thresholds(badge_channel_gain=0.0))
    channel = Identifier([text_refs])
    cards = ("plain-yellow-square", "plain-orange-bar")
    named = named_plain_cards({"grey": grey, "channel": channel}, cards, 4800, per_card=8, stride=20)
    assert named["channel"] > named["grey"], named  # 3 -> 5 of 16 when written

"""Name the card in one frame, or say there is none / it is not one we know.

Pipeline (one frame; docs/vision.md has the reasons and measurements):
1. ORB on the equalised frame (features.py).
2. Every frame descriptor looks up its candidates in ONE LSH index of all enrolled descriptors.
3. Look-alike ratio test: the best neighbour must be clearly closer than the best neighbour
   *outside the best card's look-alike set* (a plain ratio test would discard the shared role
   frame, which is what makes look-alikes hard to tell apart). Survivors vote for their card.
4. The best four families (a card and its look-alikes) are verified with one homography
   (frame -> canonical card) over all their correspondences: look-alikes share a layout. A
   family with votes but no homography gets a second chance by exhaustive matching against its
   most-voted member; if nothing verified, the best family is tried again with denser corners.
5. The frame is warped back onto the card and compared (appearance.py): the best member duels its
   closest look-alikes only where their faces differ, then the best card outside the family; the
   whole visible face must fit too. Per-channel correlation ignores light level and colour casts;
   saturated glare pixels are left out.
6. When no feature fit is accepted, coloured team badges are looked for by their field colour
   (badge_finder.py) and judged by the same checks; in a frame whose blacks are crushed (a tone
   curve that shifts every level down), once more on the frame lifted back; in one whose blacks
   are lifted (a haze), once more with its black level taken off.
7. A plain-field card (one colour over half its face) must also show its own field colour,
   against its own white, and its own emblem: a flat field correlates with any flat field, so
   the duels alone named unenrolled plain cards (_plain_evidence).
8. When nothing card-like was fitted at all, card-shaped outlines (outline_finder.py: straight
   segments joined into four sides) are judged among the cards with structure over most of
   their face; only a match is taken (_outline_look).

Look-alike sets are found when the identifier is built, from the enrolled references alone:
cards sharing many near-identical descriptors at the same canonical positions. Near-twins (faces
differing on under 3% of the card) duel on detail faces by prediction error; faces of the same
design in another colour duel on colour ratios. The decision thresholds come from the deck's
calibration at enrollment (calibration.py); nothing depends on any catalogue's art.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

import cv2
import numpy as np

from device.hardware.vision import outline_finder
from device.hardware.vision.appearance import FaceRows, bandpass, bandpass_all, correlate
from device.hardware.vision.badge_finder import (
    MIN_FIELD_SHARE,
    BadgeColour,
    BadgeFinder,
    Emblem,
    added_light,
    chromaticity,
    emblem_of_field,
    field_colours,
    shadow_light,
)
from device.hardware.vision.calibration import DEFAULT_STRICTNESS, thresholds_at
from device.hardware.vision.card_art import CARD_CORNERS, CARD_H, CARD_W
from device.hardware.vision.channels import channel_max, channel_min, channel_sum
from device.hardware.vision.features import FeatureExtractor, Features
from device.hardware.vision.hamming_index import HammingIndex
from device.hardware.vision.localiser import Correspondences, PooledLocaliser
from device.hardware.vision.references import (
    DETAIL_H,
    DETAIL_SCALE,
    DETAIL_W,
    THUMB_H,
    THUMB_SCALE,
    THUMB_W,
    ReferenceSet,
)

_BIG = 1 << 20
_VIEW_SLOTS = 6  # a frame's views kept during one identify(): half size, grey, its B, G and R channels, half grey
PLAIN_INK_CHOICES = ("all", "neutral", "off")  # Thresholds.plain_ink

_T = TypeVar("_T")


@dataclass(frozen=True)
class Thresholds:
    """Decision thresholds (tuned on tuning seeds only; see docs/vision.md)."""

    max_dist: int = 64  # Hamming distance above which a neighbour is no match at all
    ratio: float = 0.8  # best < ratio * best outside the group
    min_votes: int = 6  # group votes needed before trying RANSAC
    min_inliers: int = 10  # RANSAC inliers for a plausible card
    ransac_px: float = 6.0  # reprojection threshold in canonical card pixels
    ransac_method: int = cv2.USAC_FAST  # OpenCV's plain RANSAC spends ~7 ms on 400 hopeless draws
    ransac_iters: int = 400
    min_similarity: float = 0.8  # appearance correlation of the winner
    min_margin: float = 0.1  # winner minus runner-up inside a look-alike group
    min_coverage: float = 0.3  # share of the distinctive mask that must be in view
    min_outsider_margin: float = 0.03  # winner over the best-supported card of another family
    min_whole: float = 0.7  # appearance correlation of the winner over the whole visible face
    min_whole_cardlike: float = 0.55  # below it a failed match is scenery, not an unknown card
    min_twin_margin: float = 0.15  # near-twins: the detail duel's margin (a title, a mark: all there is)
    min_twin_coverage: float = 0.5  # near-twins: share of what differs that must be in view
    min_twin_coverage_clear: float = 0.3  # ... or this share, when the duel is clear-cut:
    min_twin_margin_clear: float = 0.4  # margin for that
    twin_part_bar: float = 0.3  # > 0: a blank twin's win is undecided when a part of what differs, judged
    # alone, favours the marked twin by this margin (stop 58; 0: off)
    min_twin_margin_blank: float = 0.35  # a twin that wins by *lacking* what its rival has (no "II", no
    # mark) needs this margin: a blurred or slightly misaligned mark also looks absent
    candidates_to_verify: int = 4  # look-alike families tried with RANSAC per frame
    rivals: int = 2  # look-alikes dueled against the best one
    alike_share: float = 0.2  # shared layout features making two cards look-alikes
    min_own_inliers: int = 0  # inliers on the winner's own art (reported; 1 cost 5% of frames)
    guided: bool = True  # exhaustive matching against one member when a family gets no homography
    guided_ratio: float = 0.9  # within one card: second neighbour of the same card
    guided_max_pairs: int = 150
    guided_attempts: int = 4  # how many of the tried families get the guided second chance
    dense_families: int = 1  # families retried with denser frame corners when nothing verified
    retry_min_votes: int = 0  # family votes that earn the guided and dense retries (calibrated: above
    # what empty scenes of the calibration gave, so an empty table costs one plain pass)
    bandpass_sigma: float = 3.0  # thumbnail pixels; 0 compares plain (smoothed) faces
    trim: float = 0.25  # share of worst-fitting pixels ignored by the appearance check
    glare_level: int = 250  # a pixel this bright in every channel is glare, not card
    badge_fields: bool = True  # look for coloured badge fields when features found nothing
    badge_min_chroma: float = 0.15  # a field this far from grey can be found by its colour
    badge_orientations: int = 2  # badge orientations judged per colour patch, best-fitting first (of 4)
    badge_align_iters: int = 60  # ECC iterations aligning each badge orientation
    badge_rank_iters: int = 15  # > 0: the four ranked after this many, only the chosen ones aligned further
    badge_min_view: float = 0.1  # a colour patch whose best aligned view correlates less with the badge's
    # face is not judged at all (speed: matches seen at >= 0.24, most ceiling and card patches < 0.1)
    badge_min_rough_view: float = -0.15  # ... nor aligned, when its best view before alignment is below this
    # (speed, stop 36: matched patches' rough views >= -0.08 on tuning seeds; -1: off)
    badge_channel_gain: float = 3.5  # > 0: a badge is aligned and its views correlated in the colour channel
    # where its enrolled face has the most contrast (std / (mean + 8)), when that beats grey's by this factor
    # (stop 48, tuning: yellow and orange plain cards, 5.2-8.7, gained; green and blue, 2.0-2.4, did not)
    badge_neutral_patches: int = 2  # > 0: white and grey plain cards are looked for too, by their flat
    # field: this many of the largest flat patches of their colour (0: only coloured fields)
    badge_neutral_max_features: float = 0.6  # ... having fewer reference corners than this share of the
    # deck's median card (measured at enrollment: the own badges' rings and stars have ~850, as many as art;
    # 0.25 before stop 51, when two neutral fields differing in level only could be named as each other)
    badge_neutral_hole: float = 0.5  # ... whose patch must show this share of the emblem as a hole
    badge_neutral_fit: bool = True  # ... with their outline fitted like a coloured field's
    badge_flat_gradient: float = 0.03  # a pixel is flat when its gradient is below this share of its brightness
    badge_seek: float = 0.2  # follow a badge field's colour under a colour cast from this radius (0: off)
    badge_max_drift: float = 0.2  # ... at most this far from the enrolled chromaticity (L1)
    badge_deshadow: float = 0.8  # a field whose 10th brightness percentile is under this share of its 90th
    # is shadowed: judged again with the shadow divided out (0: off)
    badge_deshadow_sigma: float = 2.0  # px at half size: how sharp a shadow's edge the light map follows
    badge_deshadow_colour: float = 0.5  # a deshadowed card is named only with a colour error under this share of the
    # plain-card bar: a second chance lets more of the colours near an enrolled one through
    badge_deshadow_min_view: float = -0.2  # ... and only a field whose best first-look view correlated at least
    # this with the badge's face (speed: empty tables and unenrolled cards; stop 36)
    badge_deglare: float = 30.0  # > 0: a field lifted by a reflection (90th percentile of its grey excess
    # at least this many levels) is judged again with that light taken off (stop 39)
    badge_deglare_min_view: float = -0.2  # ... only a field whose best first-look view correlated at least this
    badge_deglare_sigma: float = 4.0  # px at half size: how far the added light measured on the field is spread
    badge_relight_neutral: int = 1  # how many white and grey fields get these second looks, best first-look
    # view first: every such card is searched on the same flat patches of the room (stop 51) ...
    badge_relight_neutral_features: float = 0.25  # ... of those with fewer reference corners than this share
    # of the deck's median card (one with more has its features too; the looks cost most of its search)
    badge_skip_cardlike: bool = True  # no badge search when a card-like face of a card the finder does not
    # look for was already found (speed: unenrolled illustrated cards; stop 38)
    badge_neutral_emblem: float = 0.25  # > 0: white and grey plain cards are placed by their emblem too,
    # a hole among their patch's pixels within this share of its median brightness (stop 53; 0: off)
    badge_emblem_fits: int = 1  # > 0: this many holes in a coloured field also place the card as its emblem
    badge_fit_scale: float = 0.5  # fit the field's outline to the frame's field pixels (ECC at this share
    # of thumbnail size; 0: off): a badge running off the frame's edge has a wrong patch outline
    align_inside_only: bool = True  # ECC's first pass compares only the part of the card inside the frame
    pooled: str = "after"  # the deck-pooled localiser: "first", "after" the families, or "off"
    pooled_method: int = cv2.USAC_PROSAC  # pooled pairs come sorted by distinctiveness
    pooled_iters: int = 2000
    pooled_dense: bool = True  # try the pooled localiser again on denser corners...
    pooled_dense_min: int = 5  # ... when the plain corners gave this many pooled matches but no fit
    refine_min_whole: float = 0.3  # a failed fit whose face correlates this well is aligned densely
    refine_detail: bool = True  # ... at thumbnail and then at detail resolution
    outline_look: bool = True  # a frame with nothing card-like fitted: card-shaped outlines judged (stop 59)
    outline_min_correlation: float = 0.3  # ... an outline only when its face correlates this well with some card
    # (tuning frames: the rescued outlines 0.40-0.76; outlines on empty and unenrolled frames median 0.07, 90% 0.25)
    outline_judged: int = 2  # ... and at most this many, the best correlated first (stop 60, tuning frames reaching
    # the look: 1 lost 1 of 30 rescues, 2 and 6 none; each judgement is 7-25 ms, on plain cards' outlines too)
    refine_highpass: float = 3.0  # > 0: a card-like fit still undecided at the end is aligned once more, face and
    # frame compared with their shading taken off (a Gaussian of this many thumbnail px subtracted, twice as many at
    # detail size): a shadow or a lamp's gradient across the card leads plain ECC away from a fit a few px off
    # (stop 56; 0: off)
    refit: bool = True  # least squares on RANSAC's consensus (its minimal-sample model is often off)
    affine_rescue: bool = True  # a fit whose face is not card-like: its consensus' affine fit judged too
    affine_rescue_families: bool = True  # ... a family's fit too, kept only when it names a card
    affine_rescue_unknown: bool = True  # ... or, card-like, for the second look when nothing else was
    pooled_guided_radius: float = 12.0  # a card-like pooled fit that decided nothing: matched again
    # within this many card pixels of where it puts each frame corner, refitted, judged (0: off) ...
    pooled_guided_min_similarity: float = 0.45  # ... when its winner's duel similarity is at least this
    # (stop 41, tuning: named 0.40-0.87; unenrolled cards, where it never named anything, 0.15-0.54)
    pooled_local: str = "instead"  # locally equalised corners (CLAHE) for the pooled retry, "instead" of
    # the dense ones (no extra cost on empty tables), or "off" (the dense ones)
    colour_duel_below: float = 0.1  # an edge duel this close between same-design faces goes to colour
    colour_duel_agree: float = 0.25  # ... this close, the colours' margin counts where they agree with it
    plain_evidence: bool = True  # a plain-field card must show its own field colour and its own layout
    max_plain_colour: float = 0.12  # field hue and level against the card's white (log colour, gamma fitted)
    max_plain_chroma: float = 0.22  # ... or, for a card with no white to judge against, its chromaticity (L1)
    max_plain_layout: float = 0.15  # its emblem and white seen as field, or its field as white (share)
    max_plain_spill: float = 0.4  # < 1: at most this share of a band just outside the card may show its field
    max_plain_stretch: float = 1.55  # > 0: a plain card's fit may stretch it at most this much (1/cos of its tilt)
    max_plain_ink_hue: float = 0.12  # ... or against its dark ink (log colour), for a card with no white
    plain_min_similarity: float = 0.5  # > 0: the duel's similarity bar for a plain card judged against its
    # own white (hue, level and layout all measured), whose flat field band-passes to noise in the duel,
    plain_sure_colour: float = 0.03  # ... when its field's colour error is at most this (a nearby colour's
    # is more: the low bar alone let sky through as blue)
    neutral_level_weight: float = 1.0  # a white or grey field's level error counts this much (others 0.5)
    neutral_level_slack: float = 0.0  # >= 0: no gamma is fitted to a white or grey field's hue (a fit to a
    # grey hue is noise: at its clip it passed a slate field as a grey one), and its level over its white may
    # differ from the enrolled one by this share of it (stop 52: 0.1 passed a grey of 160 as one of 130 with the
    # same emblem; 0 is the gamma of 1 an exactly grey hue always had); < 0: fitted to the hue, before stop 52
    crushed_share: float = 0.02  # > 0: a frame that named nothing and has at least this share of its pixels
    # at 0 in some channel (crushed blacks; clean tuning frames: 1-5 in 100 above it) has its coloured badges
    # searched again (stop 54; 0: off) ...
    crushed_lifts: tuple[int, ...] = (25, 50)  # ... on the frame lifted by these many levels in turn
    haze_black: int = 25  # > 0: a frame that named nothing whose darkest 1 % (every 4th row and column, its
    # darkest channel) is at least this level (a haze, a brightness setting: lifted blacks) has its coloured
    # badges searched again with that level less `haze_keep` taken off (stop 55; 0: off) ...
    haze_keep: int = 15  # ... (a scene's own darkest 1 %: clean tuning frames' median 14-15)
    plain_rival_colour: float = 1.5  # > 0: plain cards whose enrolled field passes another's hue check
    # within this many times its bar, at any level, are its rivals: a fit naming it must beat each in a duel
    plain_rival_fits: bool = True  # a badge fit naming a card with plain rivals is weighed against the rivals
    # on their own fits, by emblem (stop 52; False: the first badge fit judged a match is named, as before)
    plain_rival_align: bool = True  # ... and each rival with no matching orientation of its own is aligned
    # from the named card's fit and judged there too
    plain_unshade: bool = True  # an enrolled plain card's shading is taken out before its layout is measured
    plain_unshade_refits: int = 2  # ... fitted again this often on the field pixels near the last fit: a white
    # emblem on a grey field has the field's chromaticity, not its level (stop 52; 0: one fit, as before)
    plain_layout_grey_light: bool = True  # the layout is also measured blind to grey light added or taken
    # away (a lamp's reflection, a shadow over the white), and the smaller of the two counts
    plain_ink: str = "all"  # which plain cards with no white beside their field are judged against their
    # ink: "all" (stop 31), "neutral" (a white or grey field only, which had no evidence), "off" (before:
    # a coloured field by its chromaticity alone, a white one by nothing)

    def __post_init__(self) -> None:
        # a misspelt trial setting must not quietly mean "off"
        if self.plain_ink not in PLAIN_INK_CHOICES:
            raise ValueError(f"plain_ink must be one of {', '.join(PLAIN_INK_CHOICES)}, not {self.plain_ink!r}")


@dataclass(frozen=True)
class Identification:
    """What one frame shows.

    status: "match" (card named), "unknown" (a card-like object that matches nothing well
    enough), "none" (no card in view). `card`/`deck` are the best candidate even when not a
    match; `score` in [0, 1] is the confidence for that candidate.
    """

    status: str
    card: str | None = None
    deck: str | None = None
    score: float = 0.0
    inliers: int = 0
    similarity: float = 0.0
    margin: float = 0.0
    coverage: float = 0.0
    own_inliers: int = 0
    whole: float = 0.0
    corners: np.ndarray | None = field(default=None, repr=False)
    outsider_margin: float = 1.0  # winner minus the best-supported card of another family
    refined: bool = False  # judged again after aligning the face densely (_second_look)
    plain_colour: float = 0.0  # a plain-field winner: its field's hue error against its white (or its
    # chromaticity's distance, scaled to the same bar, for a card without a white area)
    plain_layout: float = 0.0  # ... and how much of its layout the frame contradicts

    @property
    def is_match(self) -> bool:
        return self.status == "match"


class Identifier:
    """Built once from reference sets (several decks allowed); `identify(frame)` per frame."""

    def __init__(
        self,
        reference_sets: Sequence[ReferenceSet],
        thresholds: Thresholds | None = None,
        extractor: FeatureExtractor | None = None,
        look_alikes: np.ndarray | None = None,
    ):
        if thresholds is None:  # each deck's calibrated strictness; several decks: the strictest
            t = max((refs.strictness for refs in reference_sets), default=DEFAULT_STRICTNESS)
            thresholds = thresholds_at(Thresholds(), t)
            votes = max((refs.retry_min_votes for refs in reference_sets), default=0)
            thresholds = replace(thresholds, retry_min_votes=votes)
        self.t = thresholds
        self.extractor = extractor or FeatureExtractor()
        self.labels: list[tuple[str, str]] = []  # (deck, card) per card index
        self._index_of: dict[tuple[str, str], int] = {}
        thumbs, pts, descs, owner = [], [], [], []
        for refs in reference_sets:
            base = len(self.labels)
            self.labels.extend((refs.deck, c) for c in refs.cards)
            thumbs.append(refs.thumbs)
            pts.append(refs.points)
            descs.append(refs.descriptors)
            owner.append(refs.owner + base)
        self._index_of = {label: k for k, label in enumerate(self.labels)}
        self.thumbs = np.concatenate(thumbs) if thumbs else np.zeros((0, THUMB_H, THUMB_W, 3), np.uint8)
        self._thumbs_f = self.thumbs.astype(np.float32)
        # Grey cameras: compare with grey thumbnails (three equal channels; badges then differ
        # only by brightness, see docs/vision.md).
        grey = self._thumbs_f @ np.float32([0.114, 0.587, 0.299])
        self._thumbs_grey_f = np.repeat(grey[..., None], 3, axis=3)
        # What the appearance check compares: band-passed faces (structure, not smooth shading).
        self._cmp_colour = bandpass_all(self._thumbs_f, self.t.bandpass_sigma)
        self._cmp_grey = bandpass_all(self._thumbs_grey_f, self.t.bandpass_sigma)
        # Families are ranked on these (FaceRows); the grey ones only once a grey camera needs them.
        self._rows_colour = FaceRows(self._cmp_colour)
        self._rows_grey: FaceRows | None = None
        self.points = np.concatenate(pts) if pts else np.zeros((0, 2), np.float32)
        self.descriptors = np.concatenate(descs) if descs else np.zeros((0, 32), np.uint8)
        self.owner = np.concatenate(owner).astype(np.int64) if owner else np.zeros(0, np.int64)
        self.index = HammingIndex(self.descriptors)
        self._lines = cv2.createLineSegmentDetector()  # outline_finder's segments (the last look)
        self._localiser = PooledLocaliser(self.points, self.descriptors, self.t.max_dist, self.t.ratio)
        self._card_rows = [np.flatnonzero(self.owner == i) for i in range(len(self.labels))]
        self._bf = cv2.BFMatcher(cv2.NORM_HAMMING)
        # alike[i, j]: card j shares card i's layout (i itself included).
        # Given (a subset of an already measured deck, as calibration builds them), stored with a
        # single deck's references, or measured here.
        if look_alikes is None and len(reference_sets) == 1 and reference_sets[0].look_alikes is not None:
            look_alikes = reference_sets[0].look_alikes
        self.alike = look_alikes if look_alikes is not None else self._find_look_alikes(len(self.labels))
        self._alike_i64 = self.alike.astype(np.int64)
        # Near-twins (faces differing on under 3% of the card: a title, a small mark) cannot be
        # told apart at thumbnail size; they duel on detail faces (twice the resolution) instead.
        self.twins = self._find_twins()
        have = all(r.details is not None and len(r.details) == len(r.cards) for r in reference_sets)
        self._details_f = (
            np.concatenate([r.details for r in reference_sets]).astype(np.float32) if have and reference_sets else None
        )
        self._cmp_detail = bandpass_all(self._details_f, self.t.bandpass_sigma) if self._details_f is not None else None
        self._detail_masks: dict[tuple[int, int], np.ndarray] = {}
        self._detail_parts_cache: dict[tuple[int, int], list[np.ndarray]] = {}
        self.last_support = 0  # the best family's votes in the last frame (calibration reads it)
        self._family_norm = np.sqrt(self.alike.sum(axis=1)).astype(np.float64)
        inner = np.zeros((THUMB_H, THUMB_W), bool)
        inner[2:-2, 2:-2] = True
        self._inner = inner
        self._masks: dict[tuple[int, int], np.ndarray] = {}
        self._structure: dict[tuple[int, int], bool] = {}
        self._grey = False
        self._own: dict[int, np.ndarray] = {}
        plain_fields = field_colours(self.thumbs, 0.0)  # every card mostly one colour, grey ones too
        self._plain_layouts = self._make_plain_layouts(plain_fields) if self.t.plain_evidence else {}
        self._plain_rivals = self._find_plain_rivals()
        badges = field_colours(self.thumbs, self.t.badge_min_chroma) if self.t.badge_fields else []
        # White and grey plain cards too: found by a field that is both their colour and flat.
        # Only cards measured as plain (whose field can then be judged against their own face)
        # and low in texture: one with as many corners as the deck's other cards is found by
        # them, and the search costs an empty frame up to ~15 ms (own white badge, ceiling frames).
        median_rows = float(np.median([len(r) for r in self._card_rows] or [0]))
        few = self.t.badge_neutral_max_features * median_rows
        neutral = [
            b
            for b in plain_fields
            if self.t.badge_fields
            and self.t.badge_neutral_patches > 0
            and b.card in self._plain_layouts
            and np.abs(b.chroma - 1 / 3).sum() < self.t.badge_min_chroma
            and len(self._card_rows[b.card]) < few
        ]
        if self.t.badge_neutral_emblem > 0:  # their emblems, measured by level (stop 53)
            neutral = [replace(b, emblem=self._neutral_emblem(b)) for b in neutral]
        self._badge_finder = BadgeFinder(
            badges + neutral,
            seek_radius=self.t.badge_seek,
            max_drift=self.t.badge_max_drift,
            fit_scale=self.t.badge_fit_scale,
            neutral={b.card: self._neutral_max_solidity(b.card) for b in neutral},
            neutral_patches=self.t.badge_neutral_patches,
            flat_gradient=self.t.badge_flat_gradient,
            neutral_fit=self.t.badge_neutral_fit,
            emblem_fits=self.t.badge_emblem_fits,
            neutral_level_band=self.t.badge_neutral_emblem,
        )
        few_relit = self.t.badge_relight_neutral_features * median_rows  # (which of them get second looks)
        self._relit_neutral = {b.card for b in neutral if len(self._card_rows[b.card]) < few_relit}
        self._coloured_badges = {b.card for b in self._badge_finder.badges} - set(self._badge_finder.neutral)
        self._searched_by_field = np.zeros(len(self.labels), bool)  # the cards the badge finder looks for
        self._searched_by_field[[b.card for b in self._badge_finder.badges]] = True
        self._badge_channel = {b.card: self._contrast_channel(b.card) for b in self._badge_finder.badges}
        # The cards an outline may name (_outline_look): neither the plain ones nor any other card with
        # little structure on its face, which a flat rectangle fits as well once it is placed exactly
        # (stop 59, probe deck: empty tables named as two plain cards that have no plain layout).
        plain = set(self._plain_layouts) | {int(k) for k in np.flatnonzero(self._searched_by_field)}
        structure = (np.abs(self._cmp_colour).max(axis=3)[:, self._inner] > _STRUCTURE_LEVEL).mean(axis=1)
        self._textured = np.array(
            [k for k in range(len(self.labels)) if k not in plain and structure[k] >= _OUTLINE_MIN_STRUCTURE], np.int64
        )
        self._views_of: np.ndarray | None = None  # the frame whose half-size, grey and channel views are kept
        self._views_cache: list[np.ndarray | None] = [None] * _VIEW_SLOTS
        self._in_identify = False
        self._dense_feats: Features | None = None  # the frame's dense corners, kept during one identify()
        self._first_views: dict[int, float] = {}  # the last full badge search's best view per card
        self._rescued: Identification | None = None  # a family fit's card-like affine rescue, this frame

    # --- build time ---------------------------------------------------------------------------

    def _find_look_alikes(self, n: int) -> np.ndarray:
        """Cards sharing many features at the same card positions (a shared role frame).

        Enrolled faces are all normalised to the canonical card, so a shared frame shows up as
        near-identical descriptors at (nearly) the same canonical position.
        """
        alike = np.eye(n, dtype=bool)
        for i in range(n):
            rows = np.flatnonzero(self.owner == i)
            if len(rows) == 0:
                continue
            cand = self.index.candidates(self.descriptors[rows])
            other = self.owner[cand.ref]
            near = np.abs(self.points[rows[cand.query]] - self.points[cand.ref]).max(axis=1) <= _SAME_PLACE_PX
            keep = (other != i) & (cand.dist <= 40) & near
            shared = np.unique(other[keep] * len(rows) + cand.query[keep]) // len(rows)
            counts = np.bincount(shared, minlength=n)
            need = max(15, self.t.alike_share * len(rows))
            for j in np.flatnonzero(counts >= need):
                alike[i, j] = alike[j, i] = True
        return alike

    def _make_plain_layouts(self, fields: list[BadgeColour]) -> dict[int, _PlainLayout]:
        """Where each plain-field card (one colour over half its face, any colour: `fields`) has
        its field, its other parts and its white, measured on its own face (see _plain_evidence)."""
        out: dict[int, _PlainLayout] = {}
        for p in fields:
            face = self._plain_face(p)
            dist = channel_sum(np.abs(face - p.bgr.astype(np.float32)))
            fm = cv2.erode((dist < 60).astype(np.uint8), _K5).astype(bool) & self._inner
            nm, wm = self._other_and_white(face, dist > 120)
            if (dist < _FLAT_FIELD).mean() < MIN_FIELD_SHARE or fm.sum() < 50:
                continue  # not a plain card (or a photo whose field is shaded: features alone decide)
            f = np.median(face[fm], axis=0)
            chroma = chromaticity(f)
            neutral = np.abs(chroma - 1 / 3).sum() < self.t.badge_min_chroma
            ink = self.t.plain_ink == "all" or (self.t.plain_ink == "neutral" and neutral)
            if wm.sum() >= 15:
                w = np.median(face[wm], axis=0)
                out[p.card] = _PlainLayout(fm, nm, wm, _hue_of(f, w), _level_of(f, w), chroma, neutral=neutral)
                continue
            # Its ink (a dark emblem clear of edges): the reference when the field is its only white.
            im = cv2.erode(((dist > 120) & (channel_max(face) <= _INK_LEVEL)).astype(np.uint8), _K3).astype(bool)
            im &= self._inner
            if ink and im.sum() >= 15:  # (no level: _plain_evidence judges the hue alone against ink)
                k = np.median(face[im], axis=0)
                out[p.card] = _PlainLayout(fm, nm, im, _hue_of(f, k), 0.0, chroma, by_ink=True, neutral=neutral)
            elif not neutral:
                # No white to judge the field against (a thin ring): its chromaticity, absolutely.
                out[p.card] = _PlainLayout(fm, nm, None, np.zeros(3), 0.0, chroma)
            elif (pale := self._pale_layout(face, dist)) is not None:
                out[p.card] = pale
        return out

    def _find_plain_rivals(self) -> dict[int, np.ndarray]:
        """For each plain card judged against its white, the other such cards whose own enrolled
        field passes its hue check (`_colour_error`'s gamma-fitted hue) within `plain_rival_colour`
        of the bar, whatever their level: only their emblems can tell them apart. The level is
        the colour check's weak part: a gamma fitted to a near-neutral hue is noise and scales
        it, and shadows move it (a slate field passed as a grey one). Measured on the deck's own
        faces. The features need not have made them look-alikes (their faces differ everywhere
        by level), so the tournament never duels them."""
        bar = self.t.plain_rival_colour * self.t.max_plain_colour
        if bar <= 0:
            return {}
        judged = {k: lay for k, lay in self._plain_layouts.items() if lay.white is not None and not lay.by_ink}
        out: dict[int, np.ndarray] = {}
        for k, lay in judged.items():  # (each other card's enrolled hue and level, as its layout measured them)
            rivals = [j for j, o in judged.items() if j != k and _colour_error(o.hue, o.level, lay, self.t)[0] <= bar]
            if rivals:
                out[k] = np.array(rivals, np.int64)
        return out

    def _other_and_white(self, face: np.ndarray, other: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A plain face's parts that are not its field (`other`, a thin ring's kept too: `_core`)
        and its white among them (a border, an emblem): pixels clear of edges, the colour's reference."""
        white = cv2.erode((other & (channel_min(face) >= 190)).astype(np.uint8), _K3).astype(bool)
        return _core(other) & self._inner, white & self._inner

    def _pale_layout(self, face: np.ndarray, dist: np.ndarray) -> _PlainLayout | None:
        """A white or grey field whose emblem is only a little lighter (a cream card with a white
        emblem: nothing on it is 120 levels from the field, and it has no dark ink): its white is
        what is lighter than the field in every channel by `_PALE_STEP` levels (L1), its field what
        is within half of that (stop 42). Without a layout such a card had no plain evidence, so
        another colour's card with the same emblem could be named as it by the features alone.
        `dist` is each pixel's distance (L1) from the field colour."""
        fm = cv2.erode((dist < _PALE_STEP / 2).astype(np.uint8), _K5).astype(bool) & self._inner
        if fm.sum() < 50:
            return None
        f = np.median(face[fm], axis=0)
        chroma = chromaticity(f)
        if np.abs(chroma - 1 / 3).sum() >= self.t.badge_min_chroma:
            return None
        nm, wm = self._other_and_white(face, (dist > _PALE_STEP) & (channel_min(face) > f.max()))
        if wm.sum() < 15:
            return None
        w = np.median(face[wm], axis=0)
        return _PlainLayout(fm, nm, wm, _hue_of(f, w), _level_of(f, w), chroma, neutral=True)

    def _neutral_emblem(self, b: BadgeColour) -> Emblem | None:
        """A white or grey plain card's emblem, as a hole in its field measured by level (its
        unshaded face within 60 levels of the field colour, as its layout is): by chromaticity a
        white emblem is field too, so the card had none and was never placed by it."""
        return emblem_of_field(channel_sum(np.abs(self._plain_face(b) - b.bgr.astype(np.float32))) < 60)

    def _plain_face(self, b: BadgeColour) -> np.ndarray:
        """A plain card's enrolled face as its layout and emblem are measured on: unshaded."""
        face = self._thumbs_f[b.card]
        return _unshaded(face, b.mask > 0, self.t.plain_unshade_refits) if self.t.plain_unshade else face

    def _neutral_max_solidity(self, card: int) -> float:
        """How solid a white or grey plain card's flat patch can look at most: its emblem (the
        share of its face that is not field) leaves a hole; half of it may be blurred shut."""
        lay = self._plain_layouts[card]
        emblem = float(lay.other.sum()) / max(float(lay.field.sum() + lay.other.sum()), 1.0)
        return 1.0 - self.t.badge_neutral_hole * emblem

    def _contrast_channel(self, card: int) -> int:
        """The view a badge is aligned and compared in: grey (-1), or the colour channel (0-2,
        BGR) in which its enrolled face has the most contrast for its level (std / (mean + 8), which
        a colour cast's gain per channel leaves nearly as it is), when that beats grey's by
        `badge_channel_gain`. A yellow field beside white differs little in grey but a lot in
        blue; the grey view of such a badge is mostly the light across it (stop 48)."""
        if self.t.badge_channel_gain <= 0:
            return -1
        face = self._thumbs_f[card].reshape(-1, 3)
        grey = self._thumbs_grey_f[card][..., 0].ravel()
        rel = face.std(axis=0) / (face.mean(axis=0) + 8.0)
        best = int(np.argmax(rel))
        return best if rel[best] > self.t.badge_channel_gain * grey.std() / (grey.mean() + 8.0) else -1

    def look_alike_groups(self) -> list[list[str]]:
        """Connected sets of look-alike cards (for reports), as card ids."""
        n = len(self.labels)
        seen = np.zeros(n, bool)
        out = []
        for i in range(n):
            if seen[i]:
                continue
            comp, todo = set(), [i]
            while todo:
                k = todo.pop()
                if k in comp:
                    continue
                comp.add(k)
                todo.extend(int(j) for j in np.flatnonzero(self.alike[k]) if j not in comp)
            seen[list(comp)] = True
            if len(comp) > 1:
                out.append([self.labels[k][1] for k in sorted(comp)])
        return out

    def _find_twins(self) -> np.ndarray:
        """twins[a, b]: look-alikes whose thumbnails differ on less than 3% of the card."""
        n = len(self.labels)
        twins = np.zeros((n, n), bool)
        for a in range(n):
            others = [b for b in np.flatnonzero(self.alike[a]) if b > a]
            if not others:
                continue
            diff = np.abs(self._thumbs_f[others] - self._thumbs_f[a]).max(axis=3) > _DIFF_LEVEL
            for b, share in zip(others, diff.mean(axis=(1, 2)), strict=True):
                if share < _TWIN_SHARE:
                    twins[a, b] = twins[b, a] = True
        return twins

    def too_alike(self) -> list[tuple[str, str]]:
        """Near-twin pairs (faces differing on under 3% of the card): told apart only on detail faces,
        and only when the title or mark that differs is in view."""
        return [(self.labels[a][1], self.labels[b][1]) for a, b in zip(*np.nonzero(np.triu(self.twins)), strict=True)]

    def has_near_twin(self, deck: str, card: str) -> bool:
        """Whether an enrolled card has a near-twin among the enrolled cards (False if not enrolled)."""
        k = self._index_of.get((deck, card))
        return k is not None and bool(self.twins[k].any())

    # --- per frame ----------------------------------------------------------------------------

    def identify(self, frame: np.ndarray) -> Identification:
        """Name the card in a BGR (or grey) frame (see the module docstring for the steps)."""
        if frame.ndim not in (2, 3) or min(frame.shape[:2]) < 32:
            return Identification("none")  # too small to show a card (a 1x1 file, a thumbnail)
        frame = _camera_size(frame)
        result = self._per_frame(self._identify, frame)
        if result.status != "none":
            return result
        if self.t.crushed_share > 0 and _crushed_share(frame) >= self.t.crushed_share:
            # Crushed blacks: a camera whose tone curve shifts every level down (a contrast curve, a
            # brightness setting) clips the dark part of the frame to 0 and moves every plain field's
            # colour away from its own. Lifted back by a guessed offset, the colours are near their
            # own again; art cards are found by their corners either way (stop 54).
            for lift in self.t.crushed_lifts:
                lifted = self._per_frame(self._badge_relevelled, cv2.add(frame, np.full_like(frame, lift)))
                if lifted is not None:
                    return lifted
        elif self.t.haze_black > 0 and (black := _black_level(frame)) >= self.t.haze_black:
            # Lifted blacks: a haze (or a brightness setting) adds about one level to every pixel,
            # which greys every field's colour over its white. Nothing is clipped, so taking the
            # frame's own black level off brings the colours back near their own (stop 55).
            lowered_frame = cv2.subtract(frame, np.full_like(frame, black - self.t.haze_keep))
            lowered = self._per_frame(self._badge_relevelled, lowered_frame)
            if lowered is not None:
                return lowered
        return result

    def _per_frame(self, look: Callable[[np.ndarray], _T], frame: np.ndarray) -> _T:
        """`look(frame)` with the per-frame caches fresh before and cleared after."""
        self._views_of, self._in_identify = None, True  # a camera may reuse one buffer: nothing carries over
        self._dense_feats, self._rescued = None, None
        try:
            return look(frame)
        finally:
            self._views_of, self._views_cache, self._in_identify = None, [None] * _VIEW_SLOTS, False
            self._dense_feats, self._rescued = None, None

    def _badge_relevelled(self, relevelled: np.ndarray) -> Identification | None:
        """The coloured badges searched for on a frame lifted out of its crushed blacks, or
        lowered out of its lifted ones: a second chance, so named only with a field colour error
        under `badge_deshadow_colour` of the plain-card bar, as the other second looks are
        (`_badge_again`). Not white and grey fields: a guessed level moves a grey's level to
        another grey's."""
        if not self._coloured_badges:
            return None
        found = self._badge_orientations(relevelled, only=self._coloured_badges)
        return self._judge_badge_fits(relevelled, found, self._second_look_colour())

    def _identify(self, frame: np.ndarray) -> Identification:
        feats = self.extractor.frame(self._grey_view(frame))  # one grey view for every ORB pass and ECC
        pooled: Identification | None = None
        if self.t.pooled == "first":
            pooled = self._pooled(frame, feats)
            if pooled.is_match:
                return pooled
        votes = self._votes(feats) if len(feats) >= self.t.min_inliers and self.index.size else None
        self.last_support = 0
        if votes is None:
            if self.t.pooled == "after":
                pooled = self._pooled(frame, feats)
                if pooled.is_match:
                    return pooled
            unknown = pooled if pooled is not None and pooled.status == "unknown" else None
            badge = self._badge_by_field(frame)
            if badge is None and unknown is not None:
                unknown = self._shading_free_look(frame, unknown)
            return badge or unknown or self._outline_look(frame)
        card_votes, q_pts, r_pts, q_card = votes
        # A card's support: its votes and its look-alikes' votes, scaled down for big families,
        # which collect stray votes from the background just by being many.
        raw_support = self._alike_i64 @ card_votes
        self.last_support = int(raw_support.max(initial=0))
        support = raw_support / self._family_norm
        best_unknown: Identification | None = None
        tried = np.zeros(len(self.labels), bool)
        no_fit: list[tuple[np.ndarray, int | None]] = []  # families that gave no homography
        for attempt in range(self.t.candidates_to_verify):
            c = int(np.argmax(np.where(tried, -1, support)))
            if tried[c] or raw_support[c] < self.t.min_votes:
                break
            family = self.alike[c]
            tried |= family
            sel = family[q_card]
            members = np.flatnonzero(family)
            others = np.where(family, -1, support)
            outsider = int(np.argmax(others)) if others.max(initial=-1) > 0 else None
            result = self._verify(frame, members, q_pts[sel], r_pts[sel], q_card[sel], outsider)
            earned = raw_support[c] >= self.t.retry_min_votes
            if result.status == "none" and self.t.guided and attempt < self.t.guided_attempts and earned:
                result = self._guided(frame, feats, members, card_votes, outsider)
            if result.is_match:
                return result
            if result.status == "none" and earned:
                no_fit.append((members, outsider))
            if result.status == "unknown" and (best_unknown is None or result.score > best_unknown.score):
                best_unknown = result
        if self.t.pooled == "after":
            pooled = self._pooled(frame, feats)
        if pooled is not None:
            if pooled.is_match:
                return pooled
            if pooled.status == "unknown" and (best_unknown is None or pooled.score > best_unknown.score):
                best_unknown = pooled
        if best_unknown is None and no_fit and self.t.dense_families and self.t.guided:
            # A small, fingered or low-texture card yields too few frame corners: look again
            # with more, weaker ones, against the best-supported families that gave no fit.
            dense = self._dense(frame)
            for members, outsider in no_fit[: self.t.dense_families]:
                result = self._guided(frame, dense, members, card_votes, outsider)
                if result.is_match:
                    return result
                if result.status == "unknown" and (best_unknown is None or result.score > best_unknown.score):
                    best_unknown = result
        badge = self._badge_by_field(frame) if self._badge_search_needed(best_unknown) else None
        if badge is not None:
            return badge
        if best_unknown is None and self.t.affine_rescue_unknown:
            best_unknown = self._rescued  # a family fit's card-like affine rescue (see _verify)
        if best_unknown is not None:
            best_unknown = self._dense_looks(frame, best_unknown)
        return best_unknown or self._outline_look(frame)

    def _outline_look(self, frame: np.ndarray) -> Identification:
        """The last look at a frame where nothing card-like was fitted: card-shaped
        quadrilaterals found by their straight edges (outline_finder.py), each taken both ways
        round, judged among the cards with structure over most of their face (`_textured`: a
        flat rectangle fits a plain card once it is placed exactly), and the most card-like one
        aligned densely as the second look does. Only the ways round whose face correlates with
        some such card are judged, the best first and at most `outline_judged` of them (stop
        60: each judgement is 7-25 ms). A blurred, glared, fingered card gives ORB almost nothing
        of its own while its outline is plain (stop 59). Only a match is taken: a rectangle that
        is no enrolled card (a phone, a book, a poster) stays "none", so an empty table never
        turns "unknown"."""
        if not self.t.outline_look or len(self._textured) == 0:
            return Identification("none")
        grey = self._grey_half(frame)
        none = np.zeros(0, np.int64)
        best: Identification | None = None
        ranked: list[tuple[float, np.ndarray, np.ndarray]] = []
        for quad in outline_finder.card_quads(grey, self._lines):
            for corners in outline_finder.orientations(quad):
                h = cv2.getPerspectiveTransform(corners, _CANONICAL)
                c = self._best_correlation(frame, h)
                if c >= self.t.outline_min_correlation:  # (most of a scene's rectangles show no card's face)
                    ranked.append((c, corners, h))
        ranked.sort(key=lambda x: -x[0])
        for _, corners, h in ranked[: self.t.outline_judged]:
            r = self._judge(frame, self._textured, h, corners, none, 0, np.zeros((0, 2)), none, None)
            if r.is_match:
                return replace(r, refined=True)
            if r.status == "unknown" and (best is None or r.whole > best.whole):
                best = r
        if best is not None:
            again = self._dense_looks(frame, best)
            named = self._card_index(again)
            if again.is_match and named is not None and named in self._textured:
                return again
        return Identification("none")

    def _dense_looks(self, frame: np.ndarray, result: Identification) -> Identification:
        """A card-like fit that decided nothing, aligned densely: the second look (unless it was
        already), then, if that names nothing, the look without shading."""
        if not result.refined:
            result = self._second_look(frame, result)
        return result if result.is_match else self._shading_free_look(frame, result)

    def _best_correlation(self, frame: np.ndarray, h: np.ndarray) -> float:
        """How well the frame warped by h correlates with the best of the cards an outline may name
        (the tournament's first ranking: band-passed faces, half the pixels)."""
        obs, valid = self._warp_back(frame, h)
        return float(self._family_rows().correlate(obs, valid & _CHECKER, self._textured).max(initial=0.0))

    def _second_look(self, frame: np.ndarray, result: Identification) -> Identification:
        """A fit that found a card-like face but no decision: feature homographies are often a
        few pixels off (features bunched on one part of the card, lines that slide along
        themselves), which is enough to lose a title or a twin's mark. Align the frame densely
        with the leading card's face (ECC) and judge again, among every enrolled card."""
        k = self._alignable(result)
        if k is None:
            return result
        realigned = self._realigned(frame, result, k, 0.0)
        if realigned is None:
            return replace(result, refined=True)
        again, _ = realigned
        best = again if again.is_match or again.whole > result.whole else result
        return replace(best, refined=True)

    def _shading_free_look(self, frame: np.ndarray, result: Identification) -> Identification:
        """The last look at a card-like fit that is still undecided: aligned again as the second
        look does, but comparing face and frame with their shading taken off (`refine_highpass`).
        A shadow or a lamp's gradient across a card leads plain ECC away from a fit a few px off
        (stop 56, text-frame table frames: fits 3-55 px off aligned 50-570 px away, or not at all,
        while the true pose names the card). Run last, so that it only ever decides a frame that
        would otherwise stay "unknown": a fit that looked shaded to it but named a card elsewhere
        in the pipeline is never reached (the pooled localiser's fit can be the poorer of two
        fits of a near-twin). Only a match is taken; otherwise the fit stays as it was."""
        k = self._alignable(result) if self.t.refine_highpass > 0 else None
        realigned = self._realigned(frame, result, k, self.t.refine_highpass) if k is not None else None
        if realigned is None or not realigned[0].is_match:
            return result
        again, h = realigned
        named = self._card_index(again)
        # A near-twin named for lacking its twin's mark (the blank one) is not taken: absence is the
        # weaker evidence, and this look is a second draw on a fit whose twin duel was undecided
        # (stop 56, tuning frames: an "II" card, well placed already, named as its blank twin).
        blank = (
            named is not None
            and self._cmp_detail is not None
            and bool(self.twins[named].any())
            and self._twin_duels(frame, h, named, again.similarity)[4]
        )
        return result if blank else replace(again, refined=True)

    def _alignable(self, result: Identification) -> int | None:
        """The leading card of a fit card-like enough to align densely with its face, or None."""
        if result.card is None or result.corners is None or result.whole < self.t.refine_min_whole:
            return None
        return self._card_index(result)

    def _realigned(
        self, frame: np.ndarray, result: Identification, k: int, highpass: float
    ) -> tuple[Identification, np.ndarray] | None:
        """A card-like fit aligned densely with card k's face (`_align`, with `highpass`) and judged
        again among every enrolled card: (the judgement, its homography), or None when the
        alignment fails."""
        assert result.corners is not None
        h = cv2.getPerspectiveTransform(result.corners.astype(np.float32), _CANONICAL)
        h2 = self._align(frame, k, h, detail=self.t.refine_detail, highpass=highpass)
        corners = _card_corners_in_frame(h2) if h2 is not None else None
        if h2 is None or corners is None:
            return None
        none = np.zeros(0, np.int64)
        every = np.arange(len(self.labels))
        again = self._judge(frame, every, h2, corners, none, result.inliers, np.zeros((0, 2)), none, None)
        return again, h2

    def _pooled(self, frame: np.ndarray, feats: Features) -> Identification:
        """Localise with features pooled over the deck (localiser.py: the shared frame template
        counts), then decide among every enrolled card on the warped face."""
        if len(feats) < self.t.min_inliers:
            return Identification("none")
        corr = self._localiser.match(feats.points, feats.descriptors)
        result, fitted = self._pooled_judged(frame, corr)
        dense: Features | None = None
        if not fitted and self.t.pooled_dense and len(corr) >= self.t.pooled_dense_min:
            # Some template features but no fit: a small or blurred card. More, weaker corners.
            local = self.t.pooled_local == "instead"
            dense = self.extractor.frame_local(self._grey_view(frame)) if local else self._dense(frame)
            result, fitted = self._pooled_judged(frame, self._localiser.match(dense.points, dense.descriptors))
        if result.is_match or not fitted:
            return result
        result = self._pooled_guided(frame, result, dense if dense is not None else feats)
        if result.is_match:
            return result
        return self._second_look(frame, result)

    def _pooled_guided(self, frame: np.ndarray, result: Identification, corners: Features) -> Identification:
        """A card-like pooled fit that decided nothing, matched again where it puts each corner
        (guided matching): every frame corner is paired with the pooled descriptor nearest in
        Hamming distance among those within `pooled_guided_radius` of its predicted place on
        the card, then refitted and judged. The first fit's consensus is often bunched on one
        part of the card; the corners it predicts well there find their pairs all over the card
        once the search is local, where the deck-wide ratio test had thrown them away (tuning
        frames: fits 11-90 px off that the ECC second look walked away from). `corners` are the
        ones the fit came from (the frame's, or the CLAHE retry's): stop 40 described the frame
        again in tiles and matched twice, at 12 and 7.2 px, for +68 % bench time; stop 41's one
        pass over corners already made kept most of the gain, and a bar on the fit's duel
        similarity spares most unenrolled cards. A near-twin named this way is left "unknown" for
        the second look to decide, as after the affine rescue."""
        radius = self.t.pooled_guided_radius
        if radius <= 0 or result.corners is None or result.whole < self.t.refine_min_whole:
            return result
        if result.similarity < self.t.pooled_guided_min_similarity:
            return result  # most likely a card that is not enrolled: the call costs 36-89 ms there
        h = cv2.getPerspectiveTransform(result.corners.astype(np.float32), _CANONICAL)
        near = self._localiser.match_near(corners.points, corners.descriptors, h, radius)
        alt, fitted = self._pooled_judged(frame, near)
        return self._better_fit(result, alt) if fitted else result

    def _pooled_judged(self, frame: np.ndarray, corr: Correspondences) -> tuple[Identification, bool]:
        """The pooled pairs' fit, judged among every card: (the result, whether the fit was plausible)."""
        if len(corr) < self.t.min_inliers:
            return Identification("none"), False
        h, corners, inl, inliers = self._fit(corr.frame, corr.card, self.t.pooled_method, self.t.pooled_iters)
        if h is None or corners is None:
            return Identification("none", inliers=inliers), False
        every = np.arange(len(self.labels))
        q_card = np.full(len(corr), -1)
        result = self._judge(frame, every, h, corners, inl, inliers, corr.card, q_card, None)
        return self._affine_rescue(frame, every, corr.frame, corr.card, inl, inliers, q_card, result), True

    def support(self, frame: np.ndarray) -> int:
        """The best family's votes in a frame, without verifying anything (calibration)."""
        feats = self.extractor.frame(_camera_size(frame))
        votes = self._votes(feats) if len(feats) >= self.t.min_inliers and self.index.size else None
        return int((self._alike_i64 @ votes[0]).max(initial=0)) if votes is not None else 0

    def _badge_search_needed(self, best_unknown: Identification | None) -> bool:
        """Whether to look for a plain card by its field: not when the features already placed a
        card-like face of a card the finder does not look for (an unenrolled or undecided
        illustrated card: its illustration's colours give badge patches that cost ~40 ms to
        align and judge, for nothing). On the tuning worlds no badge frame's card-like face
        before the search was another card's (stop 38)."""
        if not self.t.badge_skip_cardlike or best_unknown is None:
            return True
        k = self._card_index(best_unknown)
        return k is None or bool(self._searched_by_field[k])

    def _card_index(self, result: Identification) -> int | None:
        """The enrolled index of a result's card (None for no card or one not enrolled here)."""
        return self._index_of.get((result.deck or "", result.card)) if result.card is not None else None

    def _badge_by_field(self, frame: np.ndarray) -> Identification | None:
        """A team badge found by its coloured field (badge_finder.py), judged like any fit."""
        result = self._judge_badge_fits(frame, self._badge_orientations(frame), None)
        # The fields this search saw (each second look's own search replaces the finder's; it
        # keeps none for a grey frame).
        fields = list(self._badge_finder.fields.items())
        t = self.t
        second_looks = (
            # A shadow across the field, divided out (badge_finder.shadow_light, stop 35) ...
            (t.badge_deshadow, t.badge_deshadow_min_view, shadow_light, t.badge_deshadow_sigma, np.divide),
            # ... then a reflection's added light, taken off (badge_finder.added_light, stop 39).
            (t.badge_deglare, t.badge_deglare_min_view, added_light, t.badge_deglare_sigma, np.subtract),
        )
        for bar, min_view, light_of, sigma, correct in second_looks:
            if result is None and bar > 0 and fields:
                result = self._badge_relit(frame, fields, min_view, light_of, bar, sigma, correct)
        return result

    def _badge_relit(
        self,
        frame: np.ndarray,
        fields: list[tuple[int, np.ndarray]],
        min_view: float,
        light_of: Callable[[np.ndarray, np.ndarray, float, float], np.ndarray | None],
        bar: float,
        sigma: float,
        correct: Callable[[np.ndarray, np.ndarray], np.ndarray],
    ) -> Identification | None:
        """Each badge field the finder saw, judged again on the frame with the light that
        `light_of(small, field, bar, sigma)` measures on the field's own pixels (a half-size map,
        or None where there is nothing to correct) corrected by `correct(frame, light)`, after the
        plain judgement failed. Only a field whose best first-look view correlated at least
        `min_view` with its face: with nothing of the emblem seen a second search is not worth
        it (speed, stop 36). White and grey fields are all found on the same flat patches of the
        room: only the `badge_relight_neutral` best-viewed of those with few corners are looked
        at again (stop 51; a card with more is found by its features too)."""
        small = self._half(frame).astype(np.float32)
        best_viewed = sorted(
            (card for card, _ in fields if card in self._relit_neutral),
            key=lambda card: -self._first_views.get(card, -1.0),
        )[: self.t.badge_relight_neutral]
        for card, pixels in fields:
            if self._first_views.get(card, -1.0) < min_view:
                continue
            if card in self._badge_finder.neutral and card not in best_viewed:
                continue
            light = light_of(small, pixels, bar, sigma)
            if light is None:
                continue
            lit = np.clip(correct(frame.astype(np.float32), _frame_size(light, frame)[..., None]), 0, 255)
            result = self._badge_again(lit.astype(np.uint8), card)
            if result is not None:
                return result
        return None

    def _badge_again(self, corrected: np.ndarray, card: int) -> Identification | None:
        """One badge searched for and judged again on a frame with its light corrected (a second
        look): named only with a field colour error under `badge_deshadow_colour` of the plain-card
        bar, since a second chance lets more of the colours near an enrolled one through."""
        found = self._badge_orientations(corrected, only={card})
        return self._judge_badge_fits(corrected, found, self._second_look_colour())

    def _second_look_colour(self) -> float:
        """The field colour error a badge named on a second look (a corrected or lifted frame) may
        have: `badge_deshadow_colour` of the plain-card bar."""
        return self.t.badge_deshadow_colour * self.t.max_plain_colour

    def _judge_badge_fits(
        self,
        frame: np.ndarray,
        orientations: list[tuple[int, np.ndarray | None, np.ndarray]],
        max_colour: float | None,
    ) -> Identification | None:
        """The first of the badge fits judged a match (with a plain colour error at most
        `max_colour`, when given), or None. A card with plain rivals is named only when it is
        the clear best of its rivals' matches on their own fits (`_best_of_rivals`)."""
        for k, (card, aligned, rough) in enumerate(orientations):
            result = self._judge_badge_fit(frame, card, aligned, rough, max_colour)
            if result is not None:
                if self.t.plain_rival_fits and len(self._plain_rivals.get(card, ())):
                    return self._best_of_rivals(frame, result, card, orientations[k + 1 :], max_colour)
                return result
        return None

    def _judge_badge_fit(
        self,
        frame: np.ndarray,
        card: int,
        aligned: np.ndarray | None,
        rough: np.ndarray,
        max_colour: float | None,
        by_emblem: bool = False,
    ) -> Identification | None:
        """One badge orientation judged: its aligned fit, then its rough one (ECC can also walk
        away from a good fit: a glare halo, fingers over a flat field); the match, or None. With
        `by_emblem`, also a fit that passes every check but the field's colour (a rival's)."""
        none = np.zeros(0, np.int64)
        family = np.flatnonzero(self.alike[card])
        for h in (aligned, rough):
            corners = _card_corners_in_frame(h) if h is not None else None
            if h is None or corners is None:
                continue
            result = self._judge(frame, family, h, corners, none, 0, np.zeros((0, 2)), none, None)
            if result.is_match and (max_colour is None or result.plain_colour <= max_colour):
                return result
            if by_emblem and self._passes_but_colour(result):
                return result
        return None

    def _passes_but_colour(self, r: Identification) -> bool:
        """Whether a judgement passed every check but the plain field's colour (at the full
        similarity bar: the lower one is for a field whose colour is sure)."""
        fits = self._face_fits(r.coverage, r.similarity, self.t.min_similarity, r.margin, r.whole, r.outsider_margin)
        return fits and r.plain_layout <= self.t.max_plain_layout

    def _face_fits(
        self, coverage: float, sim: float, sim_bar: float, margin: float, whole: float, outsider_margin: float
    ) -> bool:
        """The appearance checks of a match: enough of the distinctive face in view, the duel won
        with `sim_bar` and the margins, the whole visible face alike."""
        t = self.t
        return (
            coverage >= t.min_coverage
            and sim >= sim_bar
            and margin >= t.min_margin
            and whole >= t.min_whole
            and outsider_margin >= t.min_outsider_margin
        )

    def _best_of_rivals(
        self,
        frame: np.ndarray,
        first: Identification,
        card: int,
        rest: list[tuple[int, np.ndarray | None, np.ndarray]],
        max_colour: float | None,
    ) -> Identification | None:
        """A plain card matched on one fit, against its rivals on *their own* fits (the badge
        orientations still to judge; a rival with none that passes is aligned from the named
        card's fit): two grey cards with the same emblem in other places are each matched on a
        fit that lays their emblem over the frame's, and on that fit the rival duel favours
        whichever card the fit was made for (stop 52: a fit 36-54 px off named the other card).
        A rival counts when its fit passes every check but the colour: two greys' levels are
        within what a tone curve does to them, so the emblem decides. The card whose fit shows
        it best (duel similarity) is named, only when it passed the colour check too and beats
        the next by `min_outsider_margin`; else nothing is (the frame cannot tell)."""
        rivals = set(self._plain_rivals[card].tolist())
        contenders = [first]
        for other, aligned, rough in rest:
            if other in rivals:
                result = self._judge_badge_fit(frame, other, aligned, rough, max_colour, by_emblem=True)
                if result is not None:
                    contenders.append(result)
                    rivals.discard(other)  # (its best-ranked orientation that passes is its own fit)
        if self.t.plain_rival_align and first.corners is not None:
            h = cv2.getPerspectiveTransform(first.corners.astype(np.float32), _CANONICAL)
            for other in sorted(rivals):
                ch = self._badge_channel.get(other, -1)
                aligned = self._align(frame, other, h, iters=self.t.badge_align_iters, channel=ch)
                if aligned is not None:
                    result = self._judge_badge_fit(frame, other, aligned, h, max_colour, by_emblem=True)
                    if result is not None:
                        contenders.append(result)
        if len(contenders) == 1:
            return first
        contenders.sort(key=lambda r: -r.similarity)
        best, second = contenders[0], contenders[1]
        named = best.is_match and (max_colour is None or best.plain_colour <= max_colour)
        if not named or best.similarity - second.similarity < self.t.min_outsider_margin:
            return None
        return best

    def _badge_orientations(
        self, frame: np.ndarray, only: set[int] | None = None
    ) -> list[tuple[int, np.ndarray | None, np.ndarray]]:
        """(card, ECC-aligned fit or None, rough fit) to judge for each badge colour patch: of
        the four ways the badge's field can sit in it, each aligned with the badge's face, the
        `badge_orientations` whose aligned views (the rough one where ECC failed) correlate best
        with that face (the emblem decides; a flat field does not), best first. The checks cost
        ~5-10 ms per fit judged. (Before alignment the rough fit can rank the right orientation
        last.) ECC on a flat face runs to its iteration limit, ~0.2 ms an iteration: the four are
        ranked after `badge_rank_iters` and only the chosen ones aligned on to `badge_align_iters`
        (stop 30: 150 iterations a patch instead of 240, the same names on the tuning worlds). A
        patch none of whose four rough views correlates even `badge_min_rough_view` with the face
        is not aligned at all (stop 36: a background or an illustration of the badge's colour)."""
        found = self._badge_finder.candidates(frame, self._half(frame) if frame.ndim == 3 else None, only)
        if only is None:  # (a search limited to some cards is the deshadowed look, which reads these)
            self._first_views = {}
        grey = self._grey_half(frame) if found else None
        views: dict[int, np.ndarray | None] = {-1: grey}  # grey, or a badge's contrast channel (half size)
        out: list[tuple[int, np.ndarray | None, np.ndarray]] = []
        rank_iters = self.t.badge_rank_iters if 0 < self.t.badge_rank_iters < self.t.badge_align_iters else 0
        k = 0
        while k < len(found):
            card = found[k][0]
            group = [rough for c, rough in found[k : k + 4] if c == card]  # the finder gives 4 per patch
            k += len(group)
            ch = self._badge_channel.get(card, -1) if frame.ndim == 3 else -1
            if ch not in views:
                views[ch] = np.ascontiguousarray(self._half(frame)[..., ch])
            view = views[ch]
            face = (self._thumbs_grey_f[card][..., 0] if ch < 0 else self._thumbs_f[card][..., ch]).ravel()
            face = face - face.mean()
            best = max(_view_correlation(view, rough, face) for rough in group)
            scored: list[tuple[float, np.ndarray | None, np.ndarray]] = []
            if best >= self.t.badge_min_rough_view:  # else nothing like the badge even roughly: no ECC
                for rough in group:
                    aligned = self._align(frame, card, rough, iters=rank_iters or self.t.badge_align_iters, channel=ch)
                    h = aligned if aligned is not None and _card_corners_in_frame(aligned) is not None else rough
                    scored.append((_view_correlation(view, h, face), aligned, rough))
                best = max(sc for sc, _, _ in scored)
            if only is None:
                self._first_views[card] = max(self._first_views.get(card, -1.0), best)
            if not scored or self._hopeless_patch(scored):
                continue
            order = sorted(range(len(scored)), key=lambda j: -scored[j][0])
            if self.t.badge_orientations < 4:
                order = order[: self.t.badge_orientations]
            else:  # all four, in the finder's order (as before this ranking existed)
                order = sorted(order)
            for j in order:
                aligned = scored[j][1]
                if rank_iters and aligned is not None:  # the chosen ones: the rest of their alignment
                    more = self._align(frame, card, aligned, iters=self.t.badge_align_iters - rank_iters, channel=ch)
                    # (ECC failing to go on keeps the part already aligned, not only the rough fit)
                    aligned = more if more is not None and _card_corners_in_frame(more) is not None else aligned
                out.append((card, aligned, scored[j][2]))
        return out

    def _hopeless_patch(self, scored: list[tuple[float, np.ndarray | None, np.ndarray]]) -> bool:
        """Whether a colour patch is not worth judging (speed only; issue 13): the judgements cost
        ~5 ms each and a patch has up to four, while the grey correlation of each orientation's
        aligned view with the badge's face is already known. On own and tuning-world frames
        (295 patches) every orientation that was then matched had >= 0.24; 159 patches, mostly
        ceiling colours, fingers and cards the features missed, had < 0.1 in every orientation."""
        return max((sc for sc, _, _ in scored), default=-1.0) < self.t.badge_min_view

    def _guided(
        self, frame: np.ndarray, feats: Features, members: np.ndarray, card_votes: np.ndarray, outsider: int | None
    ) -> Identification:
        """Second chance for a family with votes but no homography (a degraded view: small,
        blurred, fingered): match the frame exhaustively against its most-voted member only.
        Shared frame features then give the homography; the duel still picks the member."""
        m = int(members[np.argmax(card_votes[members])])
        rows = self._card_rows[m]
        if len(rows) < 2:
            return Identification("none")
        pairs = self._bf.knnMatch(feats.descriptors, self.descriptors[rows], k=2)
        good = [
            p[0]
            for p in pairs
            if len(p) == 2 and p[0].distance <= self.t.max_dist and p[0].distance < self.t.guided_ratio * p[1].distance
        ]
        good = sorted(good, key=lambda g: g.distance)[: self.t.guided_max_pairs]  # RANSAC cost ~ pairs

        if len(good) < self.t.min_inliers:
            return Identification("none")
        q = feats.points[[g.queryIdx for g in good]]
        r = self.points[rows[[g.trainIdx for g in good]]]
        return self._verify(frame, members, q, r, np.full(len(good), m), outsider)

    def _align(
        self,
        frame: np.ndarray,
        card: int,
        rough: np.ndarray,
        detail: bool = False,
        iters: int = 60,
        channel: int = -1,
        highpass: float = 0.0,
    ) -> np.ndarray | None:
        """Refine a rough frame -> card homography by aligning the warped frame with the card's
        face (ECC: correlation, so light level does not matter). None if it does not converge.
        With `detail`, a second pass at detail-face resolution (twice the thumbnail's), where
        only the part of the card inside the frame is compared. With a `channel` (0-2), the
        thumbnail pass compares that colour channel instead of grey (a badge's contrast channel).
        With `highpass` (thumbnail px), both sides are compared with their shading taken off
        (`_shading_off`): ECC models one gain and offset for the whole face, which a shadow or a
        lamp's gradient across the card breaks."""
        if channel >= 0 and frame.ndim == 3 and not detail:
            grey, face0 = self._channel_view(frame, channel), self._thumbs_f[card][..., channel]
        else:
            grey, face0 = self._grey_view(frame), self._thumbs_grey_f[card][..., 0]
        h = rough
        passes = [(THUMB_SCALE, THUMB_W, THUMB_H, face0, iters)]
        if detail and self._details_f is not None:
            face = self._details_f[card] @ np.float32([0.114, 0.587, 0.299])
            passes.append((DETAIL_SCALE, DETAIL_W, DETAIL_H, face, 30))
        for k, (s, w_px, h_px, face, iters) in enumerate(passes):
            scale = np.diag([s, s, 1.0])
            m = scale @ h
            warped = cv2.warpPerspective(grey, m, (w_px, h_px), flags=cv2.INTER_AREA).astype(np.float32)
            mask = None
            if k > 0 or self.t.align_inside_only:
                inside = np.full(grey.shape, 255, np.uint8)
                mask = cv2.warpPerspective(inside, m, (w_px, h_px), flags=cv2.INTER_NEAREST)
                if (mask > 0).mean() < 0.3:
                    break
            template = np.ascontiguousarray(face, np.float32)
            if highpass > 0:
                sigma = highpass * s / THUMB_SCALE
                template = _shading_off(template, sigma, None)
                warped = _shading_off(warped, sigma, mask)
            w = np.eye(3, dtype=np.float32)
            criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, iters, 1e-4)
            try:
                _, w = cv2.findTransformECC(template, warped, w, cv2.MOTION_HOMOGRAPHY, criteria, mask, 3)
                h = np.linalg.inv(scale) @ np.linalg.inv(w.astype(np.float64)) @ m
            except (cv2.error, np.linalg.LinAlgError):
                if k == 0:
                    return None
        return h

    def _votes(self, feats: Features):
        cand = self.index.candidates(feats.descriptors)
        if len(cand.queries) == 0:
            return None
        # `take` and flat indices into the look-alike matrix: numpy's 2-D fancy indexing over the
        # ~35k candidate pairs cost a third of this function (the same values).
        card = np.take(self.owner, cand.ref)
        packed = cand.dist << 32
        packed |= cand.ref
        best = np.minimum.reduceat(packed, cand.starts)
        d1 = best >> 32
        best_ref = best & 0xFFFFFFFF
        best_card = np.take(self.owner, best_ref)
        counts = np.diff(cand.starts, append=len(cand.dist))
        pair = np.repeat(best_card * self.alike.shape[1], counts)
        pair += card
        alike = np.take(self.alike.ravel(), pair)
        d2 = np.minimum.reduceat(np.where(alike, _BIG, cand.dist), cand.starts)
        ok = (d1 <= self.t.max_dist) & (d1 < self.t.ratio * np.minimum(d2, 256))
        if not ok.any():
            return None
        q_rows = cand.queries[ok]
        q_card = best_card[ok]
        card_votes = np.bincount(q_card, minlength=len(self.labels))
        return card_votes, feats.points[q_rows], self.points[best_ref[ok]], q_card

    def _verify(
        self,
        frame: np.ndarray,
        family: np.ndarray,
        q_pts: np.ndarray,
        r_pts: np.ndarray,
        q_card: np.ndarray,
        outsider: int | None = None,
    ) -> Identification:
        """RANSAC, then the appearance duel among the family (and against the best-supported
        card outside it, so a shared layout cannot pass one role's card off as another's).
        A fit judged "none" gets the affine rescue too (stop 49). Only a match is returned from
        it: a card-like rescue returned here would skip the family's guided and dense retries
        (stop 40 lost a match that way), so it is kept aside for the second look instead."""
        if len(q_pts) < self.t.min_inliers:
            return Identification("none")
        h, corners, inl, inliers = self._fit(q_pts, r_pts)
        if h is None or corners is None:
            return Identification("none", inliers=inliers)
        result = self._judge(frame, family, h, corners, inl, inliers, r_pts, q_card, outsider)
        if not self.t.affine_rescue_families:
            return result
        alt = self._affine_rescue(frame, family, q_pts, r_pts, inl, inliers, q_card, result, outsider)
        if alt.is_match:
            return alt
        if alt.status == "unknown" and (self._rescued is None or alt.score > self._rescued.score):
            self._rescued = alt  # card-like: the second look may decide it, once the retries are done
        return result

    def _fit(
        self, q_pts: np.ndarray, r_pts: np.ndarray, method: int | None = None, iters: int | None = None
    ) -> tuple[np.ndarray | None, np.ndarray | None, np.ndarray, int]:
        """Frame -> card homography by RANSAC, or a rotation-scale-shift fit when the homography
        degenerates: (homography, card corners in the frame, inlier mask, inliers); the first two
        are None when neither fit gives a plausible card."""
        cv2.setRNGSeed(len(q_pts))  # RANSAC draws from OpenCV's global generator: be repeatable
        h, inl = cv2.findHomography(
            q_pts,
            r_pts,
            self.t.ransac_method if method is None else method,
            self.t.ransac_px,
            maxIters=self.t.ransac_iters if iters is None else iters,
        )
        inliers = int(inl.sum()) if inl is not None else 0
        if h is not None and inl is not None and inliers >= self.t.min_inliers and self.t.refit:
            h, inl, inliers = self._refit(q_pts, r_pts, h, inl, inliers)
        corners = _card_corners_in_frame(h) if h is not None and inliers >= self.t.min_inliers else None
        if corners is None:
            # Features bunched on one motif (a badge's star) make homographies degenerate; a
            # rotation-scale-shift fit needs fewer, and the appearance checks judge the result.
            a, ainl = cv2.estimateAffinePartial2D(
                q_pts, r_pts, method=cv2.RANSAC, ransacReprojThreshold=self.t.ransac_px * 1.5, maxIters=400
            )
            inliers = int(ainl.sum()) if ainl is not None else 0
            if a is None or inliers < self.t.min_inliers:
                return None, None, np.zeros(len(q_pts), np.uint8), inliers
            h, inl = np.vstack([a, [0.0, 0.0, 1.0]]), ainl
            corners = _card_corners_in_frame(h)
        return h, corners, inl, inliers

    def _affine_rescue(
        self,
        frame: np.ndarray,
        every: np.ndarray,
        q_pts: np.ndarray,
        r_pts: np.ndarray,
        inl: np.ndarray,
        inliers: int,
        q_card: np.ndarray,
        result: Identification,
        outsider: int | None = None,
    ) -> Identification:
        """A homography (the pooled localiser's or a family's) whose warped face is not even card-like
        ("none"), judged again as the affine fit of the same consensus. Inliers bunched on one part
        of the card (the shared frame's top edge, a title beside a finger) pin that part down but
        leave the perspective terms free: the far corners land tens of pixels off (tuning frames:
        36-117 px with 29-38 inliers that agree with the true pose), while an affine fit of those
        inliers extrapolates as a held card mostly is, nearly flat to the camera. A near-twin named
        on this fit is left undecided, so the dense alignment (_second_look) decides between the
        twins. A family's fit is rescued as well (`_verify`), but its "none" still earns it the
        guided and dense retries, which a card-like rescue would skip (stop 40, tuning frames: one
        match lost): the rescue there returns only a match. The rotation-scale-shift fit that _fit
        falls back to is refitted in the same way."""
        if not self.t.affine_rescue or result.status != "none" or inliers < self.t.min_inliers:
            return result
        keep = inl.ravel().astype(bool)
        a, _ = cv2.estimateAffine2D(q_pts[keep], r_pts[keep], method=cv2.LMEDS)
        if a is None:
            return result
        h = np.vstack([a, [0.0, 0.0, 1.0]])
        corners = _card_corners_in_frame(h)
        if corners is None:
            return result
        alt = self._judge(frame, every, h, corners, inl, inliers, r_pts, q_card, outsider)
        return self._better_fit(result, alt)

    def _better_fit(self, result: Identification, alt: Identification) -> Identification:
        """A second fit's judgement (the affine rescue's, guided matching's) against the first:
        kept when it names a card or its whole face fits better. A near-twin it names is left
        "unknown": the dense second look (_second_look) decides between twins."""
        k = self._card_index(alt)
        if alt.is_match and k is not None and self.twins[k].any():
            alt = replace(alt, status="unknown")
        return alt if alt.is_match or alt.whole > result.whole else result

    def _refit(
        self, q_pts: np.ndarray, r_pts: np.ndarray, h: np.ndarray, inl: np.ndarray, inliers: int
    ) -> tuple[np.ndarray, np.ndarray, int]:
        """Least squares on the consensus, then on the pairs that the refit homography agrees
        with: RANSAC's model comes from its best minimal sample, and with the inliers bunched on
        one part of the card (an illustration, a title) it can be off by tens of pixels at the far
        corners, enough for the appearance checks to see a different card."""
        q = q_pts.reshape(-1, 2).astype(np.float32)
        r = r_pts.reshape(-1, 2).astype(np.float32)
        for _ in range(2):
            keep = inl.ravel().astype(bool)
            h2, _ = cv2.findHomography(q[keep], r[keep], 0)
            if h2 is None:
                break
            err = np.linalg.norm(cv2.perspectiveTransform(q.reshape(-1, 1, 2), h2).reshape(-1, 2) - r, axis=1)
            inl2 = (err <= self.t.ransac_px).astype(np.uint8).reshape(-1, 1)
            n2 = int(inl2.sum())
            if n2 < inliers:
                break
            h, inl, inliers = h2, inl2, n2
        return h, inl, inliers

    def _judge(
        self,
        frame: np.ndarray,
        family: np.ndarray,
        h: np.ndarray,
        corners: np.ndarray,
        inl: np.ndarray,
        inliers: int,
        r_pts: np.ndarray,
        q_card: np.ndarray,
        outsider: int | None,
    ) -> Identification:
        """The appearance checks of one fitted homography (corners: the card's, in the frame)."""
        obs, valid = self._warp_back(frame, h)
        winner, sim, margin, coverage = self._tournament(obs, valid, family)
        twin_margin, twin_coverage, blank = 1.0, 1.0, False
        if self._cmp_detail is not None and self.twins[winner].any():
            winner, sim, twin_margin, twin_coverage, blank = self._twin_duels(frame, h, winner, sim)
        outsider_margin = 1.0
        if outsider is not None:
            sa, sb, _ = self._duel(obs, valid, winner, outsider)
            outsider_margin = sa - sb
        for rival in self._plain_rivals.get(winner, ()):
            if not self.alike[winner, rival]:  # (look-alikes were dueled in the tournament)
                sa, sb, _ = self._duel(obs, valid, winner, int(rival))
                outsider_margin = min(outsider_margin, sa - sb)
        # The whole visible face must fit too (the duel only looked where look-alikes differ).
        thumbs = self._cmp_grey if self._grey else self._cmp_colour
        sparse = valid & _CHECKER
        whole = float(correlate(obs[sparse], thumbs[winner][sparse][None], self.t.trim)[0])
        plain_colour, plain_layout = self._plain_evidence(valid, winner, frame, h)
        # Own evidence: inliers matched to the winner itself where it differs from its family.
        own = self._own_mask(winner)
        mine = inl.ravel().astype(bool) & (q_card == winner)
        xy = np.clip((r_pts[mine] * THUMB_SCALE).astype(int), 0, [THUMB_W - 1, THUMB_H - 1])
        unique = int(own[xy[:, 1], xy[:, 0]].sum())
        deck, card = self.labels[winner]
        score = _confidence(sim, margin, inliers, self.t)
        ok = (
            self._face_fits(coverage, sim, self._similarity_bar(winner, plain_colour), margin, whole, outsider_margin)
            and plain_layout <= self.t.max_plain_layout
            and unique >= self.t.min_own_inliers
            and self._twin_decided(twin_margin, twin_coverage, blank)
            and plain_colour <= self.t.max_plain_colour
        )
        # Not a match: a card-like object only if the face at least resembles a card's layout
        # (random scenery can yield a homography; it does not look like a card once warped).
        status = "match" if ok else ("unknown" if whole >= self.t.min_whole_cardlike else "none")
        return Identification(
            status,
            card,
            deck,
            score,
            inliers,
            sim,
            margin,
            coverage,
            unique,
            whole,
            corners,
            outsider_margin,
            plain_colour=plain_colour,
            plain_layout=plain_layout,
        )

    def _similarity_bar(self, winner: int, plain_colour: float) -> float:
        """The duel's similarity bar for this winner: lower for a plain card whose own white gives
        it the full plain evidence (hue, level and layout) and whose field's colour is close."""
        bar = self.t.min_similarity
        lay = self._plain_layouts.get(winner)
        full = lay is not None and lay.white is not None and not lay.by_ink and not self._grey
        sure = full and plain_colour <= self.t.plain_sure_colour
        return self.t.plain_min_similarity if sure and 0 < self.t.plain_min_similarity < bar else bar

    def _plain_evidence(
        self, valid: np.ndarray, winner: int, frame: np.ndarray | None = None, h: np.ndarray | None = None
    ) -> tuple[float, float]:
        """What a plain-field winner's face shows that a plain field of another card would not:
        (hue error, layout error); (0, 0) when the winner is not a plain card or the camera grey.

        A flat field band-passes to noise and correlates per channel with any other flat field,
        so the duels cannot refuse an unenrolled plain card. Two absolute checks can:
        - hue: the field's colour over the card's own white, in log colour with the mean
          removed (light level, per-channel casts and shading cancel), compared with the
          enrolled ratio after fitting one gamma in [0.6, 1.6] (a camera's tone curve scales it);
        - layout: of the face's non-field pixels in view, the share the frame shows in the
          field's colour (the emblem is not there), plus the field pixels that look like the
          card's white, over the non-field count (another emblem is there). Fingers and shadows
          look like neither, so they do not count.
        A card with no white beside its field (a white field, a thin ring) is judged by the hue
        alone against its dark ink instead (stop 31), or else by its chromaticity."""
        lay = self._plain_layouts.get(winner)
        if lay is None or self._grey:
            return 0.0, 0.0
        if h is not None and self.t.max_plain_stretch > 0 and _stretch(h) > self.t.max_plain_stretch:
            return _NO_EVIDENCE, _NO_EVIDENCE  # no card held up to be read is seen that obliquely
        o = self._plain
        fm, nm = lay.field & valid, lay.other & valid
        if fm.sum() < 50:
            return _NO_EVIDENCE, _NO_EVIDENCE
        f = np.median(o[fm], axis=0)
        if lay.white is None:  # the field's chromaticity alone, scaled to the hue error's bar
            dist = float(np.abs(chromaticity(f) - lay.chroma).sum())
            return dist * self.t.max_plain_colour / self.t.max_plain_chroma, 0.0
        wm = lay.white & valid
        if wm.sum() < 15:
            return _NO_EVIDENCE, _NO_EVIDENCE
        w = np.median(o[wm], axis=0)
        hue, colour = _colour_error(_hue_of(f, w), _level_of(f, w), lay, self.t)
        if lay.by_ink:
            # Against its dark ink the field's hue alone: the ink's level moves with blur and
            # flare, and a shadow on the field is a mix of field and ink (no layout either).
            return hue * self.t.max_plain_colour / self.t.max_plain_ink_hue, 0.0  # scaled to the hue's bar
        hue = colour
        # Each pixel as a mix of the frame's own field and white (blur, antialiasing); pixels far
        # from that segment (fingers, shadows, the table) say nothing and are left out.
        place = _on_segment(o, f, w)
        if place is None:  # field and white hardly differ: a white field, judged by colour alone
            return hue, 0.0
        layout = _layout_error(*place, nm, fm)
        if layout is None:
            return _NO_EVIDENCE, _NO_EVIDENCE
        if self.t.plain_layout_grey_light and not lay.neutral:  # (a white or grey field has no hue)
            layout = min(layout, _layout_without_grey(o, f, w, nm, fm, layout))
        # (Not for a white or grey field: a pale table or sheet beside it looks like its field.)
        if frame is not None and h is not None and self.t.max_plain_spill < 1.0 and not lay.neutral:
            spill = self._plain_spill(frame, h, f.astype(np.float32))
            layout = max(layout, spill * self.t.max_plain_layout / self.t.max_plain_spill)  # (scaled to its bar)
        return hue, layout

    def _plain_spill(self, frame: np.ndarray, h: np.ndarray, f: np.ndarray) -> float:
        """The share of a band just outside a plain card's fitted outline (in view) that shows the
        card's own field: a card ends where its field ends. A flat field fits a fit that is too
        small, squeezed or turned (another card of the same colour whose emblem is smaller, or
        turned) as well as the right one: inside the outline everything looks right, and only
        the field running on past it tells. A band pixel shows the field when its chromaticity
        and brightness are close to `f`, the field's colour in this frame (a table of a nearby
        colour is not close enough); 0 with too little of the band in view."""
        small = self._half(frame)
        m = _SPILL_SHIFT @ np.diag([THUMB_SCALE, THUMB_SCALE, 1.0]) @ h @ np.diag([2.0, 2.0, 1.0])
        size = (THUMB_W + 2 * _SPILL_PAD, THUMB_H + 2 * _SPILL_PAD)
        o = cv2.warpPerspective(small, m, size, flags=cv2.INTER_LINEAR).astype(np.float32)
        inview = cv2.warpPerspective(np.full(small.shape[:2], 255, np.uint8), m, size, flags=cv2.INTER_NEAREST) > 0
        band = _SPILL_BAND & inview
        if band.sum() < _SPILL_MIN_PX:
            return 0.0
        px = o[band]
        level = channel_sum(px)
        f_level = float(f.sum())
        near = channel_sum(np.abs(chromaticity(px) - chromaticity(f))) <= _SPILL_CHROMA
        near &= np.abs(level - f_level) <= _SPILL_LEVEL * f_level
        return float(near.mean())

    def _twin_decided(self, margin: float, coverage: float, blank: bool = False) -> bool:
        """A near-twin duel decides with half of what differs in view, or with less when the
        part in view is unequivocal (a title's suffix seen whole while the mark is cut off).
        Absence is weaker evidence than presence: a blank winner needs the blank margin."""
        if coverage >= self.t.min_twin_coverage:
            return margin >= (
                max(self.t.min_twin_margin, self.t.min_twin_margin_blank) if blank else self.t.min_twin_margin
            )
        return coverage >= self.t.min_twin_coverage_clear and margin >= self.t.min_twin_margin_clear

    def _own_mask(self, card: int) -> np.ndarray:
        """Where a card differs from its look-alikes' median face (whole card if it has none)."""
        mask = self._own.get(card)
        if mask is None:
            family = np.flatnonzero(self.alike[card])
            if len(family) == 1:
                mask = np.ones((THUMB_H, THUMB_W), bool)
            else:
                median = np.median(self._thumbs_f[family], axis=0)
                differ = (channel_max(np.abs(self._thumbs_f[card] - median)) > _DIFF_LEVEL).astype(np.uint8)
                mask = cv2.dilate(differ, _K3).astype(bool)
            self._own[card] = mask
        return mask

    def _dense(self, frame: np.ndarray) -> Features:
        """The frame's dense corners, computed once per identify(): the pooled localiser's retry
        and the families' dense retry both look at them (ORB on 1,500 corners is ~5-7 ms)."""
        if self._dense_feats is None or not self._in_identify:
            self._dense_feats = self.extractor.frame_dense(self._grey_view(frame))
        return self._dense_feats

    def _half(self, frame: np.ndarray) -> np.ndarray:
        """The frame at half size (BGR), made once per identify(): the fits judged and the badge
        finder all need it, and many frames need no grey view."""
        cache = self._view_cache(frame)
        half = cache[0]
        if half is None:
            half = cache[0] = cv2.pyrDown(frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR))
        return half

    def _grey_view(self, frame: np.ndarray) -> np.ndarray:
        """The frame in grey, made once per identify() (the ECC alignments need it)."""
        cache = self._view_cache(frame)
        grey = cache[1]
        if grey is None:
            grey = cache[1] = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        return grey

    def _grey_half(self, frame: np.ndarray) -> np.ndarray:
        """The half-size frame in grey, made once per identify() (the badge patches' first views
        and the outline finder both read it)."""
        cache = self._view_cache(frame)
        grey = cache[5]
        if grey is None:
            grey = cache[5] = cv2.cvtColor(self._half(frame), cv2.COLOR_BGR2GRAY)
        return grey

    def _channel_view(self, frame: np.ndarray, channel: int) -> np.ndarray:
        """One colour channel of a BGR frame, contiguous, made once per identify() (a badge's
        ECC alignments in its contrast channel: up to six per colour patch)."""
        cache = self._view_cache(frame)
        view = cache[2 + channel]
        if view is None:
            view = cache[2 + channel] = np.ascontiguousarray(frame[..., channel])
        return view

    def _view_cache(self, frame: np.ndarray) -> list[np.ndarray | None]:
        """The views kept for this frame: only while one identify() call looks at it (a camera
        may reuse one buffer), else a fresh, unkept list."""
        if self._views_of is not frame or not self._in_identify:
            self._views_of = frame if self._in_identify else None
            self._views_cache = [None] * _VIEW_SLOTS
        return self._views_cache

    def _warp_back(self, frame: np.ndarray, h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The frame seen in thumbnail card coordinates, and which thumbnail pixels were in view."""
        self._grey = frame.ndim == 2
        small = self._half(frame)
        m = np.diag([THUMB_SCALE, THUMB_SCALE, 1.0]) @ h @ np.diag([2.0, 2.0, 1.0])
        warped = cv2.warpPerspective(small, m, (THUMB_W, THUMB_H), flags=cv2.INTER_LINEAR)
        # Glare saturates every channel: those pixels say nothing about the face under them.
        glare = cv2.dilate((channel_min(warped) >= self.t.glare_level).astype(np.uint8), _K5).astype(bool)
        self._plain = warped.astype(np.float32)  # for colour duels (this frame only)
        warped = bandpass(self._plain, self.t.bandpass_sigma)
        valid = (
            cv2.warpPerspective(np.full(small.shape[:2], 255, np.uint8), m, (THUMB_W, THUMB_H), flags=cv2.INTER_NEAREST)
            > 0
        )
        if self.t.bandpass_sigma > 0:  # the band-pass smears the border of the view: keep clear of it
            valid = cv2.erode(valid.astype(np.uint8), _K5).astype(bool)
        return warped, valid & self._inner & ~glare

    def _tournament(self, obs: np.ndarray, valid: np.ndarray, family: np.ndarray) -> tuple[int, float, float, float]:
        """Best member of a look-alike family, judged where each rival differs from it.

        The leader on the whole card duels the next few rivals, each duel decided only on the
        pixels where the two faces differ; a rival that wins its duel takes the lead once.
        Returns (card index, worst duel similarity, worst duel margin, worst duel coverage).
        """
        sparse = valid & _CHECKER  # half the pixels are plenty to rank the members
        whole = self._family_rows().correlate(obs, sparse, family)
        order = [int(family[i]) for i in np.argsort(-whole)[: self.t.rivals + 1]]
        if len(order) == 1:
            return order[0], float(whole.max(initial=0.0)), 1.0, float(valid.mean())
        leader = order[0]
        for _ in range(2):
            results = []
            for rival in order:
                if rival == leader or (self._cmp_detail is not None and self.twins[leader, rival]):
                    continue  # near-twins duel on detail faces (_twin_duels)
                sa, sb, cov = self._duel(obs, valid, leader, rival)
                results.append((sa, sb, cov, rival))
            lost = [r for r in results if r[1] > r[0]]
            if not lost:
                break
            leader = max(lost, key=lambda r: r[1] - r[0])[3]
        if not results:  # every rival was a near-twin of the leader
            return leader, float(whole.max(initial=0.0)), 1.0, float(valid.mean())
        sim = min(r[0] for r in results)
        margin = min(r[0] - r[1] for r in results)
        cov = min(r[2] for r in results)
        return leader, float(sim), float(margin), float(cov)

    def _family_rows(self) -> FaceRows:
        """The faces families are ranked on, for this frame's camera: colour, or grey (made on first use)."""
        if not self._grey:
            return self._rows_colour
        if self._rows_grey is None:
            self._rows_grey = FaceRows(self._cmp_grey)
        return self._rows_grey

    def _twin_duels(
        self, frame: np.ndarray, h: np.ndarray, leader: int, sim: float
    ) -> tuple[int, float, float, float, bool]:
        """The leader against its near-twins on detail faces, where titles and small marks resolve.

        Correlation cannot judge these duels: where one twin is blank (no "II", no mark) its face
        is flat and a correlation with it is noise. So the light's gain per channel is fitted on
        the whole visible card (shared by both twins), and on the pixels where they differ each
        twin's prediction error is measured with that gain; margin = (e_rival - e_leader) /
        (e_rival + e_leader). A twin that wins takes the lead.
        Returns (leader, similarity, twin margin, twin coverage, whether the leader won its
        closest duel by having less detail there than the rival: a blank twin)."""
        assert self._cmp_detail is not None
        obs, valid = self._warp_detail(frame, h)
        seen = obs[valid]
        if len(seen) < 50:
            return leader, sim, 0.0, 0.0, False
        ref = self._cmp_detail[leader][valid]
        gain = (seen * ref).sum(axis=0) / ((ref * ref).sum(axis=0) + 1e-6)
        results: list[tuple[float, float, int]] = []
        for _ in range(2):
            results = []
            for rival in np.flatnonzero(self.twins[leader]):
                differ = self._detail_mask(leader, int(rival))
                use = differ & valid
                n, total = int(use.sum()), int(differ.sum())
                if total == 0 or n < 20:
                    results.append((0.0, 0.0, int(rival)))
                    continue
                results.append((self._twin_margin(obs, use, gain, leader, int(rival)), n / total, int(rival)))
            lost = [r for r in results if r[0] < 0]
            if not lost:
                break
            leader = min(lost, key=lambda r: r[0])[2]
        if not results:
            return leader, sim, 1.0, 1.0, False
        closest = min(results, key=lambda r: r[0])
        use = self._detail_mask(leader, closest[2]) & valid
        blank = float((self._cmp_detail[leader][use] ** 2).sum()) < float(
            (self._cmp_detail[closest[2]][use] ** 2).sum()
        )
        margin = closest[0]
        if blank and self.t.twin_part_bar > 0 and self._part_shows_mark(obs, valid, gain, leader, closest[2]):
            margin = 0.0  # absent here, present there: a finger over part of the mark, not a blank card
        return leader, sim, margin, min(r[1] for r in results), blank

    def _part_shows_mark(self, obs: np.ndarray, valid: np.ndarray, gain: np.ndarray, blank: int, marked: int) -> bool:
        """Whether some part of what differs between a blank twin and its marked twin (each
        connected part of the difference: a "II", a dot), judged on its own, favours the marked
        twin by `twin_part_bar`. The duel sums over every part, so a finger over the dot (flat, as
        the blank twin is there) outweighs a "II" in plain view; presence seen anywhere is
        stronger evidence than absence (stop 58, 2,880 tuning holds of text-frame near-twins:
        94 of 406 frames naming the blank twin wrongly had such a part, none of 9,612 naming it
        rightly). It only ever undoes a blank twin's win, so it cannot name another card."""
        bar = self.t.twin_part_bar
        for part in self._detail_parts(blank, marked):
            use = part & valid
            if int(use.sum()) >= _TWIN_PART_MIN_PX and self._twin_margin(obs, use, gain, blank, marked) <= -bar:
                return True
        return False

    def _twin_margin(self, obs: np.ndarray, use: np.ndarray, gain: np.ndarray, a: int, b: int) -> float:
        """Twin a's margin over twin b on the detail pixels `use`: each twin's prediction error
        of the observed face with the card's `gain`, (e_b - e_a) / (e_a + e_b)."""
        assert self._cmp_detail is not None
        o = obs[use]
        ea = float(((o - gain * self._cmp_detail[a][use]) ** 2).sum())
        eb = float(((o - gain * self._cmp_detail[b][use]) ** 2).sum())
        return (eb - ea) / (ea + eb + 1e-6)

    def _detail_parts(self, a: int, b: int) -> list[np.ndarray]:
        """The connected parts of where near-twins a and b differ (`_detail_mask`), cached."""

        def parts() -> list[np.ndarray]:
            n, labels = cv2.connectedComponents(self._detail_mask(a, b).astype(np.uint8))
            return [labels == j for j in range(1, n)]

        return _per_pair(self._detail_parts_cache, a, b, 4096, parts)

    def _warp_detail(self, frame: np.ndarray, h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The frame in detail-face coordinates (from the full frame) and which pixels are usable."""
        img = frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        m = np.diag([DETAIL_SCALE, DETAIL_SCALE, 1.0]) @ h
        warped = cv2.warpPerspective(img, m, (DETAIL_W, DETAIL_H), flags=cv2.INTER_LINEAR)
        glare = cv2.dilate((channel_min(warped) >= self.t.glare_level).astype(np.uint8), _K5).astype(bool)
        obs = bandpass(warped.astype(np.float32), self.t.bandpass_sigma)
        if frame.ndim == 2:
            obs = np.repeat((obs @ np.float32([0.114, 0.587, 0.299]))[..., None], 3, axis=2)
        inside = cv2.warpPerspective(
            np.full(img.shape[:2], 255, np.uint8), m, (DETAIL_W, DETAIL_H), flags=cv2.INTER_NEAREST
        )
        valid = cv2.erode((inside > 0).astype(np.uint8), _K5).astype(bool)
        return obs, valid & ~glare

    def _detail_mask(self, a: int, b: int) -> np.ndarray:
        """Where near-twins a and b differ on their detail faces (dilated for context), cached."""

        def mask() -> np.ndarray:
            assert self._details_f is not None
            differ = (channel_max(np.abs(self._details_f[a] - self._details_f[b])) > _DIFF_LEVEL).astype(np.uint8)
            return cv2.dilate(cv2.morphologyEx(differ, cv2.MORPH_OPEN, _K2), _K5).astype(bool)

        return _per_pair(self._detail_masks, a, b, 4096, mask)

    def _differ_mask(self, a: int, b: int) -> np.ndarray:
        """Where cards a and b differ (dilated for context), cached per pair."""

        def mask() -> np.ndarray:
            differ = (channel_max(np.abs(self._thumbs_f[a] - self._thumbs_f[b])) > _DIFF_LEVEL).astype(np.uint8)
            return cv2.dilate(cv2.morphologyEx(differ, cv2.MORPH_OPEN, _K2), _K5).astype(bool) & self._inner

        return _per_pair(self._masks, a, b, 20000, mask)

    def _duel(self, obs: np.ndarray, valid: np.ndarray, a: int, b: int) -> tuple[float, float, float]:
        differ = self._differ_mask(a, b)
        total = int(differ.sum())
        use = differ & valid
        n = int(use.sum())
        if total == 0 or n < 20:
            return 0.0, 0.0, 0.0 if total else 1.0
        thumbs = self._cmp_grey if self._grey else self._cmp_colour
        s = correlate(obs[use], np.stack([thumbs[a][use], thumbs[b][use]]), self.t.trim)
        sa, sb = float(s[0]), float(s[1])
        if (
            abs(sa - sb) < self.t.colour_duel_agree
            and not self._grey
            and total > _COLOUR_PAIR_SHARE * _INNER_PIXELS
            and self._same_structure(a, b)
        ):  # the same design in another colour: edges say little, the colours more
            ca, cb, cov = self._colour_duel(valid, a, b, n / total)
            if abs(sa - sb) < self.t.colour_duel_below:  # edges cannot tell them apart
                return ca, cb, cov
            # A close edge duel that the colours win the same way, by more: the colours' margin
            # (the winner keeps its edge similarity), if the winner's field is itself clearly its
            # colour (a quarter of the plain-card bar): the duel is relative, and an unenrolled
            # card of a nearby colour wins it too. Disagreeing colours change nothing.
            cm = ca - cb
            clear = self._plain_evidence(valid, a if sa > sb else b)[0] <= _CLEAR_COLOUR * self.t.max_plain_colour
            if clear and sa > sb and cm > sa - sb:
                return sa, sa - cm, cov
            if clear and sb > sa and cm < sa - sb:
                return sb + cm, sb, cov
        return sa, sb, n / total

    def _same_structure(self, a: int, b: int) -> bool:
        """Whether two faces have the same edges and texture (grey band-pass correlates >= 0.9):
        then whatever differs between them is colour."""
        key = (a, b) if a < b else (b, a)
        same = self._structure.get(key)
        if same is None:
            ga = self._cmp_grey[a][..., 0][self._inner]
            gb = self._cmp_grey[b][..., 0][self._inner]
            ga, gb = ga - ga.mean(), gb - gb.mean()
            rho = float((ga * gb).sum() / (np.sqrt((ga * ga).sum() * (gb * gb).sum()) + 1e-6))
            same = rho >= 0.9
            if len(self._structure) > 20000:
                self._structure.clear()
            self._structure[key] = same
        return same

    def _colour_duel(self, valid: np.ndarray, a: int, b: int, coverage: float) -> tuple[float, float, float]:
        """Two faces that differ over most of the card (a plain field in another colour, the same
        emblem): the band-pass sees nothing there, and a correlation per channel is blind to a
        two-level field-and-emblem image. With no offset, though, a field's ratio to its emblem
        per channel survives any light gain and colour cast: fit obs = gain x face per channel
        and compare the residuals: each side scores the other's share of the two (the right face
        leaves the smaller residual, so it scores near 1 and its rival near 0)."""
        o = self._plain[valid]
        spread = float(((o - o.mean(axis=0)) ** 2).sum()) + 1e-6
        out = []
        for k in (a, b):
            r = self._thumbs_f[k][valid]
            gain = (o * r).sum(axis=0) / ((r * r).sum(axis=0) + 1e-6)
            resid = channel_sum((o - gain * r) ** 2)
            keep = np.sort(resid)[: max(20, int(len(resid) * (1.0 - self.t.trim)))]  # fingers, glare
            out.append(float(keep.sum()) / spread)
        total = out[0] + out[1] + 1e-9
        return out[1] / total, out[0] / total, coverage


def _per_pair(cache: dict[tuple[int, int], _T], a: int, b: int, bound: int, make: Callable[[], _T]) -> _T:
    """`make()` for the unordered pair (a, b), kept in `cache`; the cache is emptied when it holds
    more than `bound` pairs (every pair mask and part list the identifier keeps per pair)."""
    key = (a, b) if a < b else (b, a)
    value = cache.get(key)
    if value is None:
        value = make()
        if len(cache) > bound:
            cache.clear()
        cache[key] = value
    return value


_DIFF_LEVEL = 45
_STRUCTURE_LEVEL = 6.0  # band-passed levels: a face pixel above this in some channel shows structure ...
_OUTLINE_MIN_STRUCTURE = 0.6  # ... and a card an outline may name shows it on this share of its face (stop 59,
# tuning decks: art cards >= 0.78, plain cards <= 0.75, those the plain checks do not cover <= 0.37)
_TWIN_PART_MIN_PX = 20  # detail px of a part in view for it to be judged alone (as for a whole duel)
_FLAT_FIELD = 25  # BGR (L1) within which half a plain card's face has its field colour (illustrated
# cards: at most a third, also from photos; plain cards: 0.6-0.8 from scans)
_CLEAR_COLOUR = 0.25  # share of the plain-card colour bar under which a field is clearly its colour
_LEVEL_WEIGHT = 0.5  # a field's level against its white moves with shadows more than its hue does
_INK_LEVEL = 90  # BGR: no channel above this is a card's dark ink
_PALE_STEP = 40.0  # BGR (L1): a pale field's emblem is at least this much lighter (cream 215-232 vs white 245: ~60)
_NO_EVIDENCE = 9.0  # a plain card with too little of its field or white (or ink) in view


@dataclass(frozen=True)
class _PlainLayout:
    """A plain-field card's own face, split: field, everything else, and its white (thumbnail masks)."""

    field: np.ndarray
    other: np.ndarray
    white: np.ndarray | None  # None: too little white in view to judge against (only chroma is checked)
    hue: np.ndarray  # _hue_of(field colour, white) on the enrolled face
    level: float  # _level_of(field colour, white) on the enrolled face
    chroma: np.ndarray  # the field's chromaticity on the enrolled face
    by_ink: bool = False  # `white` is the card's dark ink (a white field has no other white)
    neutral: bool = False  # the field is white or grey (chroma within `badge_min_chroma` of grey)


def _unshaded(face: np.ndarray, field: np.ndarray, refits: int = 0) -> np.ndarray:
    """An enrolled face with the lamp's shading taken out: a photo's field can darken towards one
    side by 10-20%, and measured flat it then no longer counted as one field, so the card lost its
    plain evidence. The field's brightness (its pixels found by chromaticity, which shading does
    not move) is fitted by a quadratic in x and y, and the face divided by it over its mean. A flat
    scan's fit is constant: its face is unchanged. With `refits`, the fit is made again on the
    pixels near the last one only (a grey field's white emblem has its chromaticity too)."""
    h, w = field.shape
    ys, xs = np.nonzero(field)
    if len(xs) < 50:
        return face
    level = face[ys, xs].mean(axis=1).astype(np.float64)
    terms = _quadratic_terms(xs / w - 0.5, ys / h - 0.5)
    keep = np.ones(len(level), bool)
    coef, *_ = np.linalg.lstsq(terms, level, rcond=None)
    for _ in range(refits):
        # A white emblem on a grey field has the field's chromaticity but not its level: it is
        # dropped (far off the fit), or it bends the surface and the field no longer looks flat.
        resid = np.abs(level - terms @ coef)
        near = resid <= max(_UNSHADE_KEEP_LEVELS, 3.0 * float(np.median(resid)))
        if near.sum() < 50:
            break
        keep = near
        coef, *_ = np.linalg.lstsq(terms[keep], level[keep], rcond=None)
    gy, gx = np.mgrid[0:h, 0:w].astype(np.float64)
    surface = _quadratic_terms(gx / w - 0.5, gy / h - 0.5) @ coef
    gain = (level[keep].mean() / np.maximum(surface, 1.0)).astype(np.float32)
    return np.clip(face * gain[..., None], 0.0, 255.0)


_UNSHADE_KEEP_LEVELS = 8.0  # a refit keeps the field pixels this many levels from the last fit, or 3 x the median


def _quadratic_terms(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """1, x, y, x², xy, y² per point (the last axis): a smooth surface's least-squares basis."""
    return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=-1)


def _on_segment(o: np.ndarray, f: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Each pixel of `o` as a mix of field `f` and white `w`: its place `t` on the segment (0
    field, 1 white) and whether it lies near the segment at all (fingers, shadows, the table do
    not). None when field and white hardly differ."""
    d = (w - f).astype(np.float32)
    span = float(d @ d)
    if span < _MIN_SPAN:
        return None
    rel = o - f.astype(np.float32)
    t = (rel @ d) / span
    resid = np.sqrt(np.maximum(channel_sum(rel * rel) - t * t * span, 0.0) / span)
    return t, (resid < 0.35) & (t > -0.3) & (t < 1.3)


def _layout_error(t: np.ndarray, on: np.ndarray, nm: np.ndarray, fm: np.ndarray) -> float | None:
    """The layout error from each pixel's place on the field-to-white segment (`_on_segment`):
    the non-field pixels seen as field, plus the field pixels seen as white, over the non-field
    pixels in view; None when too few non-field pixels are near the segment to say."""
    seen = nm & on
    if seen.sum() < 15:
        return None
    alpha = np.clip(t, 0.0, 1.0)
    missing = float((1.0 - alpha[seen]).sum())
    extra = float(((alpha > 0.5) & fm & on).sum())
    return (missing + extra) / float(seen.sum())


def _layout_without_grey(
    o: np.ndarray, f: np.ndarray, w: np.ndarray, nm: np.ndarray, fm: np.ndarray, fallback: float
) -> float:
    """The layout error with each colour's grey part taken away (`_without_grey`); `fallback` when
    field and white differ too little in hue (a white, grey or pale field) or too few pixels say."""
    place = _on_segment(_without_grey(o), _without_grey(f), _without_grey(w))
    error = _layout_error(*place, nm, fm) if place is not None else None
    return fallback if error is None else error


def _without_grey(x: np.ndarray) -> np.ndarray:
    """A colour (or each pixel's) with its grey part, the mean over B, G, R, taken away. A lamp's
    reflection adds about the same light to every channel: it lifts the field towards white, but
    leaves the differences between the channels (until they saturate). A shadow over the white
    makes it look half field in plain colour; without its grey part white has no hue, in light
    or shade, and the field keeps its own (stop 50)."""
    x = x.astype(np.float32)
    return x - x.mean(axis=-1, keepdims=True)


_MIN_SPAN = 300.0  # field to white, squared BGR (or hue) distance: below it a plain card has no layout to judge


def _shading_off(img: np.ndarray, sigma: float, mask: np.ndarray | None) -> np.ndarray:
    """The image less its Gaussian-smoothed self (float32): edges and texture without the shading.
    With a mask (the part of a warped frame in view), the smoothing is over the masked pixels only
    (normalised convolution), so the edge of the view is not taken for an edge of the card."""
    if mask is None:
        return img - cv2.GaussianBlur(img, (0, 0), sigma)
    m = (mask > 0).astype(np.float32)
    low = cv2.GaussianBlur(img * m, (0, 0), sigma) / np.maximum(cv2.GaussianBlur(m, (0, 0), sigma), 1e-3)
    return (img - low) * m


def _darkest_channel(frame: np.ndarray) -> np.ndarray:
    """Each pixel's darkest channel, every 4th row and column (a frame's blacks, cheaply)."""
    sample = frame[::4, ::4]
    return channel_min(sample) if sample.ndim == 3 else sample


def _crushed_share(frame: np.ndarray) -> float:
    """The share of a frame's pixels (every 4th row and column) with some channel at 0."""
    darkest = _darkest_channel(frame)
    return float(np.count_nonzero(darkest == 0)) / darkest.size


def _black_level(frame: np.ndarray) -> int:
    """The level of a frame's darkest 1 % (every 4th row and column, each pixel's darkest
    channel): about what a haze added to every pixel, where the scene has something dark."""
    return int(np.percentile(_darkest_channel(frame), 1))


def _colour_error(v: np.ndarray, level: float, lay: _PlainLayout, t: Thresholds) -> tuple[float, float]:
    """A field's colour against a plain card's enrolled one, given its hue `v` and level over its
    white (or ink): (hue error, hue-and-level error). The hue is compared after fitting one gamma
    in [0.6, 1.6] (a camera's tone curve scales it); the level with that gamma (a darker card of
    the same hue). A white or grey field has no hue to tell it from a lighter or darker grey:
    its level is all there is, and is held closer (at a gamma of 1: its hue cannot measure one)."""
    ref = lay.hue
    if lay.neutral and t.neutral_level_slack >= 0:
        # A grey hue is too weak to measure the tone curve's gamma by (a fit to it is noise, and
        # at its clip it let a slate field pass as a grey one): the level is judged at a gamma
        # of 1, give or take `neutral_level_slack` of itself (0: none; stop 52).
        hue = float(np.linalg.norm(v - ref))
        off = max(0.0, abs(level - lay.level) - t.neutral_level_slack * abs(lay.level))
        return hue, max(hue, t.neutral_level_weight * off)
    norm = float(ref @ ref)
    gamma = float(np.clip(v @ ref / norm, 0.6, 1.6)) if norm > 1e-6 else 1.0
    hue = float(np.linalg.norm(v - gamma * ref))
    off = abs(level - gamma * lay.level)
    return hue, max(hue, (t.neutral_level_weight if lay.neutral else _LEVEL_WEIGHT) * off)


def _level_of(field: np.ndarray, white: np.ndarray) -> float:
    """The field's brightness over the white's (mean log over B, G, R)."""
    return float(np.mean(np.log(np.maximum(field, 1.0) + 5.0) - np.log(np.maximum(white, 1.0) + 5.0)))


def _hue_of(field: np.ndarray, white: np.ndarray) -> np.ndarray:
    """The field's colour over the white, in log colour with the mean removed: a light level,
    a per-channel cast (a gain per channel) and shading on the whole card cancel."""
    v = np.log(np.maximum(field, 1.0) + 5.0) - np.log(np.maximum(white, 1.0) + 5.0)
    return (v - v.mean()).astype(np.float64)


_COLOUR_PAIR_SHARE = 0.4  # look-alikes differing over this much of the card differ by a field colour
_INNER_PIXELS = (THUMB_H - 4) * (THUMB_W - 4)
_TWIN_SHARE = 0.03  # faces differing on less than this share of the card are near-twins
_SAME_PLACE_PX = 8.0
_CHECKER = (np.indices((THUMB_H, THUMB_W)).sum(axis=0) % 2) == 0  # half the pixels
_SPILL_PAD = 8  # thumbnail px: the band outside a plain card's outline reaches this far (~13% of its width) ...
_SPILL_GAP = 2  # ... starting this far out (a fit a little off, the card's own light border)
_SPILL_SHIFT = np.array([[1.0, 0, _SPILL_PAD], [0, 1.0, _SPILL_PAD], [0, 0, 1.0]])


def _spill_band() -> np.ndarray:
    """Where the band lies on a thumbnail padded by _SPILL_PAD on every side."""
    band = np.ones((THUMB_H + 2 * _SPILL_PAD, THUMB_W + 2 * _SPILL_PAD), bool)
    lo = _SPILL_PAD - _SPILL_GAP
    band[lo : lo + THUMB_H + 2 * _SPILL_GAP, lo : lo + THUMB_W + 2 * _SPILL_GAP] = False
    return band


_SPILL_BAND = _spill_band()
_SPILL_MIN_PX = 40  # band pixels in view below which the band says nothing
_SPILL_CHROMA = 0.04  # a band pixel shows the field when its chromaticity is this close (L1) to the field's ...
_SPILL_LEVEL = 0.25  # ... and its brightness within this share of the field's
_CANONICAL = CARD_CORNERS
_K2 = np.ones((2, 2), np.uint8)
_K5 = np.ones((5, 5), np.uint8)
_K3 = np.ones((3, 3), np.uint8)


def _core(mask: np.ndarray, min_pixels: int = 15) -> np.ndarray:
    """A thumbnail mask's pixels clear of its edges (eroded 5 x 5), or, where that leaves fewer
    than `min_pixels` (a thin ring or bar: 3-4 thumbnail px wide), eroded 3 x 3, or as it is
    (stop 42: a ring's card had no emblem pixels to judge its layout on, so it was never named)."""
    m = mask.astype(np.uint8)
    for kernel in (_K5, _K3):
        core = cv2.erode(m, kernel).astype(bool)
        if core.sum() >= min_pixels:
            return core
    return m.astype(bool)


def _frame_size(light: np.ndarray, frame: np.ndarray) -> np.ndarray:
    """A half-size light map brought to the frame's size."""
    return cv2.resize(light, (frame.shape[1], frame.shape[0]), interpolation=cv2.INTER_LINEAR)


def _camera_size(frame: np.ndarray) -> np.ndarray:
    """Photos bigger than a camera frame are brought to camera resolution, where thresholds hold."""
    h, w = frame.shape[:2]
    if h * w > 1.5 * 640 * 480:
        f = np.sqrt(640 * 480 / (h * w))
        frame = cv2.resize(frame, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
    return frame


def _view_correlation(grey: np.ndarray, h: np.ndarray, face: np.ndarray) -> float:
    """How well the half-size grey frame (or one colour channel of it) seen through a frame -> card
    homography correlates with a badge's face in the same view (thumbnail size, mean removed,
    flattened)."""
    m = np.diag([THUMB_SCALE, THUMB_SCALE, 1.0]) @ h @ np.diag([2.0, 2.0, 1.0])
    view = cv2.warpPerspective(grey, m, (THUMB_W, THUMB_H), flags=cv2.INTER_LINEAR).astype(np.float32)
    v = view.ravel() - view.mean()
    return float(v @ face) / (float(np.sqrt((v @ v) * (face @ face))) + 1e-6)


def _card_corners_in_frame(h: np.ndarray) -> np.ndarray | None:
    """Frame positions of the card corners, or None if the homography is implausible."""
    try:
        inv = np.linalg.inv(h)
    except np.linalg.LinAlgError:
        return None
    card = np.float32([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]]).reshape(-1, 1, 2)
    quad = cv2.perspectiveTransform(card, inv).reshape(4, 2)
    if not np.isfinite(quad).all() or not cv2.isContourConvex(quad.astype(np.float32)):
        return None
    area = cv2.contourArea(quad.astype(np.float32))
    if area < 0.03 * 640 * 480 or area > 6 * 640 * 480:
        return None
    sides = np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)
    if sides.min() < 0.2 * sides.max():
        return None
    return quad


def _stretch(h: np.ndarray) -> float:
    """How much a frame -> card fit stretches the card one way more than the other (the ratio of
    the singular values of the card -> frame map at the card's centre): 1 / cos(tilt) for a card
    tilted away from the camera, a little more at close range. A flat field fits a fit that
    squeezes the card (another card of the same colour, its emblem turned) as well as the right
    one; a card held up to be read is not tilted past ~50 degrees (1.55)."""
    try:
        inv = np.linalg.inv(h.astype(np.float64))
    except np.linalg.LinAlgError:
        return np.inf
    p = inv @ np.array([CARD_W / 2, CARD_H / 2, 1.0])
    if abs(p[2]) < 1e-9:
        return np.inf
    jac = (inv[:2, :2] * p[2] - np.outer(p[:2], inv[2, :2])) / p[2] ** 2
    sv = np.linalg.svd(jac, compute_uv=False)
    return float(sv[0] / sv[1]) if sv[1] > 1e-12 else np.inf


def _confidence(sim: float, margin: float, inliers: int, t: Thresholds) -> float:
    """A [0, 1] confidence for display and diagnosis (decisions use the thresholds directly)."""
    s = float(np.clip(sim, 0.0, 1.0))
    m = float(np.clip(margin / (2 * t.min_margin), 0.0, 1.0))
    i = float(np.clip(inliers / (2 * t.min_inliers), 0.0, 1.0))
    return round(s * (0.5 + 0.5 * m) * (0.5 + 0.5 * i), 4)

"""The voice: synthesised sounds, espeak-ng clips cached by content, and the pygame queue."""

from __future__ import annotations

import logging
import wave
from pathlib import Path

import numpy as np
import pytest

from device.box.service import Update
from device.hardware.voice import bench
from device.hardware.voice import clips as clips_module
from device.hardware.voice.clips import ClipCache, VoiceStyle, VoiceUnavailable, fixed_phrases
from device.hardware.voice.outlet import SpeakerOutlet
from device.hardware.voice.sounds import RATE, SOUNDS, synthesise, write_wav
from device.hardware.voice.speaker import Mixer, Speaker

needs_espeak = pytest.mark.skipif(clips_module.espeak_binary() is None, reason="espeak-ng not installed")


@pytest.mark.parametrize("name", sorted(SOUNDS))
def test_every_sound_is_short_loud_enough_and_never_clips(name):
    samples = synthesise(name)
    assert samples.dtype == np.int16
    assert 0.1 <= len(samples) / RATE <= 2.0
    peak = int(np.max(np.abs(samples.astype(np.int32))))
    assert 0.5 * 32767 < peak < 0.7 * 32767
    assert abs(int(samples[0])) < 2000 and abs(int(samples[-1])) < 2000  # faded: no click


def test_an_unknown_sound_is_a_key_error():
    with pytest.raises(KeyError):
        synthesise("kazoo")


def test_fixed_phrases_come_from_the_box_and_every_game_and_leave_out_templates():
    phrases = fixed_phrases()
    assert "Houston online." in phrases
    assert "Slow down, one press at a time." in phrases
    assert "I lost the camera. Keep playing with the buttons; I will keep trying to reconnect." in phrases
    assert not any("{" in p for p in phrases)
    from games.registry import game_ids

    assert len(clips_module.catalogues()) == 1 + len(game_ids())


@needs_espeak
def test_espeak_renders_a_real_clip_once_and_the_cache_serves_it_after(clips, monkeypatch):
    path = clips.render("Red team, roll the dice.")
    with wave.open(str(path)) as clip:
        assert clip.getnchannels() == 1 and clip.getsampwidth() == 2
        assert 0.5 < clip.getnframes() / clip.getframerate() < 5
    monkeypatch.setattr(clips_module, "espeak_binary", lambda: None)  # no engine: only the cache can answer
    assert clips.render("Red team, roll the dice.") == path
    with pytest.raises(VoiceUnavailable, match="espeak-ng is not installed"):
        clips.render("Something never said before.")


def test_the_clip_name_changes_with_the_text_voice_and_speed(tmp_path):
    base = ClipCache(tmp_path).path_for("Ready.")
    assert ClipCache(tmp_path).path_for("Ready.") == base
    assert ClipCache(tmp_path).path_for("Ready!") != base
    assert ClipCache(tmp_path, VoiceStyle(speed=140)).path_for("Ready.") != base
    assert ClipCache(tmp_path, VoiceStyle(voice="en-us")).path_for("Ready.") != base


@needs_espeak
def test_render_voice_script_renders_every_fixed_phrase_then_nothing(tmp_path):
    import subprocess

    root = Path(__file__).resolve().parents[2]
    cmd = [str(root / "scripts" / "render-voice"), "--data-dir", str(tmp_path)]
    first = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=120)
    from device.hardware.voice.prerender import phrases_for, title_phrases

    n = len(phrases_for())
    assert "Starting: Here Comes the Dog" in title_phrases() and len(title_phrases()) >= 5
    assert f"{n} phrases: {n} rendered, 0 already cached" in first.stdout
    assert len(list((tmp_path / "voice").glob("*.wav"))) == n
    again = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=60)
    assert f"{n} phrases: 0 rendered, {n} already cached" in again.stdout


@needs_espeak
def test_announcements_play_through_pygame_one_after_another_never_overlapping(speaker):
    outlet = SpeakerOutlet(speaker)
    events = [
        {"type": "sound", "name": "confirm"},
        {"type": "say", "key": "a", "text": "Red."},
        {"type": "prompt", "key": "b", "text": "Blue."},
        {"type": "light", "target": "status"},  # not for the speaker
    ]
    outlet.deliver(Update(1, {}, {}, events))
    assert [(i.kind, i.what) for i in speaker.history] == [("sound", "confirm"), ("say", "Red."), ("say", "Blue.")]
    assert speaker.wait_done(10)
    started = speaker.started
    assert [i.what for i in started] == ["confirm", "Red.", "Blue."]
    lengths = [len(synthesise("confirm")) / RATE, *(speaker._loaded[t].get_length() for t in ("Red.", "Blue."))]
    for before, after, length in zip(started, started[1:], lengths, strict=False):
        assert after.started_at - before.started_at >= 0.9 * length  # the next waits for the end


def test_with_no_audio_device_the_box_logs_the_words_and_says_why_once(clips, monkeypatch, caplog):
    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-driver")
    told: list[str] = []
    caplog.set_level(logging.INFO, logger="houston.voice")
    spk = Speaker(clips, mixer=Mixer(0.8), on_silent=told.append)
    try:
        spk.say("Starting the game.")
        spk.sound("dice")
        spk.say("Red team, roll.")
        assert spk.wait_done(5)
    finally:
        spk.close()
    assert len(told) == 1 and "no audio device" in told[0]
    assert spk.started == []
    logged = [r.getMessage() for r in caplog.records]
    assert "SAY Starting the game." in logged and "SAY Red team, roll." in logged and "SOUND dice" in logged
    assert sum("speaker silent" in m for m in logged) == 1


@needs_espeak
def test_volume_from_config_is_applied_to_clips_and_sounds(clips, monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    spk = Speaker(clips, mixer=Mixer(0.25))
    try:
        spk.say("OK.")
        assert spk.wait_done(10)
        assert spk._loaded["OK."].get_volume() == pytest.approx(0.25, abs=0.01)
        assert spk._sounds["alarm"].get_volume() == pytest.approx(0.25, abs=0.01)
    finally:
        spk.close()


def test_write_wav_round_trips(tmp_path):
    path = tmp_path / "beep.wav"
    write_wav(path, synthesise("confirm"))
    with wave.open(str(path)) as clip:
        assert clip.getframerate() == RATE and clip.getnframes() == len(synthesise("confirm"))


@needs_espeak
def test_voice_bench_reports_latency_within_budget(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    code = bench.main(["--runs", "2", "--cold", "2", "--cache-dir", str(tmp_path)])
    import json

    result = json.loads(capsys.readouterr().out)
    assert result["bench"] == "voice" and result["runs"] == 4
    assert result["warm_ms"]["max"] <= bench.BUDGET_MS and code == 0
    assert 0 < result["service_ms"]["median"] <= bench.BUDGET_MS  # the whole way through the service loop


def test_a_speaker_that_appears_later_is_found_again(clips, monkeypatch):
    from device.hardware.voice import speaker as speaker_module

    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-driver")
    spk = Speaker(clips, mixer=Mixer(0.8))
    try:
        assert not spk.mixer.ok
        monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")  # the USB speaker is plugged in
        monkeypatch.setattr(speaker_module, "RETRY_SECONDS", 0.0)
        spk.sound("confirm")
        assert spk.wait_done(5)
        assert spk.mixer.ok and [i.what for i in spk.started] == ["confirm"]
    finally:
        spk.close()


def test_sounds_keep_their_length_on_a_stereo_48k_device(monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    mixer = Mixer(0.5)
    try:
        mixer.pygame.mixer.quit()
        mixer.pygame.mixer.pre_init(48000, -16, 2, 512)
        mixer.pygame.mixer.init()  # what a USB card that refuses mono 44.1 kHz gives
        assert mixer.pygame.mixer.get_init() == (48000, -16, 2)
        sound = mixer.from_samples(synthesise("fanfare"))
        assert sound.get_length() == pytest.approx(len(synthesise("fanfare")) / RATE, abs=0.002)
    finally:
        mixer.close()
        mixer.pygame.mixer.pre_init(RATE, -16, 1, 512)

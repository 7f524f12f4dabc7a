"""Every long-lived collection of the box has a bound: a flood of commands cannot grow memory
(issue 12, defect 5). The soak benchmark (`houston bench soak`) measures the whole process."""

from gpiozero.pins.mock import MockFactory, MockPWMPin

from device.box.config import config_dir, load_config
from device.box.jobs import RepeatJob
from device.box.journal import open_journal
from device.box.outlets import PanelOutlet, RecordingOutlet
from device.box.service import Service, Update
from device.box.systemd_notify import Notifier
from device.hardware.panel.buzzer import BuzzerOutlet
from device.hardware.panel.lights import Lights
from device.hardware.voice.clips import ClipCache, VoiceStyle
from device.hardware.voice.speaker import Mixer, Speaker
from device.network.mqtt.connection import Connection
from device.simulation.mock_pins import PIN_STATES_KEPT
from device.simulation.simbox import SimBox
from games.core import Light

FLOOD = 20_000


def update(i, events=(), effects=()):
    public = {"prompt": {"lights": []}}
    return Update(i, public, {}, list(events), list(effects))


def test_the_speaker_keeps_a_bounded_history_and_a_bounded_backlog(tmp_path):
    speaker = Speaker(ClipCache(tmp_path, VoiceStyle()), mixer=Mixer(0.8))
    try:
        for _ in range(FLOOD):
            speaker.sound("confirm")
        assert len(speaker.history) <= 1000
        assert speaker._queue.qsize() <= 100  # a flood is cut to its newest announcements
        assert speaker.queued == FLOOD
    finally:
        speaker.close()


def test_outlets_keep_bounded_records(tmp_path):
    recorder = RecordingOutlet()
    for i in range(FLOOD):
        recorder.deliver(update(i, [{"type": "say", "text": "x"}]))
    assert len(recorder.updates) <= 2_000

    factory = MockFactory(pin_class=MockPWMPin)
    try:
        buzzer = BuzzerOutlet(17, pin_factory=factory)
        for i in range(FLOOD):
            buzzer.deliver(update(i, [{"type": "sound", "name": "confirm"}]))
        assert len(buzzer.played) <= 1000
        buzzer.close()
    finally:
        factory.reset()


def test_the_panel_outlet_keeps_a_bounded_change_log():
    factory = MockFactory(pin_class=MockPWMPin)
    try:
        lights = Lights(load_config(config_dir())[1], pin_factory=factory)
        outlet = PanelOutlet(lights)
        for i in range(FLOOD):
            outlet.deliver(update(i, effects=[Light("status", "on" if i % 2 else "off")]))
        assert len(outlet.changes) <= 1000
        lights.close()
    finally:
        factory.reset()


def test_a_simulated_box_s_pins_keep_a_bounded_record_of_their_changes(tmp_path):
    """gpiozero's mock pins append every change to `pin.states` for ever; a simulated box runs for
    hours (`houston run --sim`, the soak), so its pins keep only the latest changes."""
    box = SimBox(tmp_path)
    try:
        for i in range(FLOOD):
            box.panel.lights.set("status", "on" if i % 2 else "off")
        led = box.factory.pin(box.pins.status_led)
        assert len(led.states) <= PIN_STATES_KEPT <= 1000
        assert led.states[-1].state == 1.0  # the latest change (on) is kept
        for _ in range(PIN_STATES_KEPT):
            box.press("repeat", wait=False)
        box.service.wait_idle()
        assert len(box.factory.pin(box.pins.buttons["repeat"]).states) <= PIN_STATES_KEPT
    finally:
        box.close()


def test_the_notifier_keeps_a_bounded_log():
    notifier = Notifier({"NOTIFY_SOCKET": "/nonexistent/socket"})
    for _ in range(FLOOD):
        notifier.status("x")
    assert len(notifier.sent) <= 1000


def test_the_service_queue_is_bounded_and_answers_busy(tmp_path):
    journal, _ = open_journal(tmp_path)
    service = Service(journal)  # not started: nothing drains the queue
    replies = []
    for _ in range(FLOOD):
        service.post(RepeatJob(replies.append))
    assert service._queue.qsize() <= 1000
    assert replies and all(r["error"] == "busy" for r in replies)
    journal.close()


def test_the_mqtt_client_queues_a_bounded_number_of_messages():
    conn = Connection(host="127.0.0.1", port=1, username=None, password=None, client_id="bound-test")
    assert 0 < conn.client._max_queued_messages <= 1000

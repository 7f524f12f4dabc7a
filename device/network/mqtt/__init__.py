"""MQTT: the box's state for displays and Home Assistant, and commands from them.

The box referees without a broker; this package only mirrors what the service already decided
(the public view, its announcements, each team's private view) onto topics whose readers the
broker's ACL controls. Topic names and payload shapes live in `topics`; docs/mqtt.md documents them.
"""

"""The box: the service loop, the journal and the adapters for buttons, LEDs, voice, camera, MQTT."""

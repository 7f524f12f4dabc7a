"""Where frames come from (Pi camera, USB webcam, image folder, video file) and the watchdog that
notices when they stop coming."""

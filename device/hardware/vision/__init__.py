"""Card recognition: enroll a deck once, then name any card held over the box (docs/vision.md)."""

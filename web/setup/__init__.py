"""Set-up mode: paint terrain, add, edit, place and rotate figures, settings (``panel``)."""

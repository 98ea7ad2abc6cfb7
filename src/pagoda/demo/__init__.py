"""Terminal demos: ``pagoda demo <game>`` prints a round played by bots in the notation."""

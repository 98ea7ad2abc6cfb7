"""Training the learned bots: ``pagoda train <game>`` (:mod:`pagoda.train.doudizhu`)."""

"""Training the learned bots by self-play: ``pagoda train tichu`` and ``pagoda train doudizhu``.

What they share (the perceptron, Adam, the replay buffer, the progress bar, checkpoints) is in
:mod:`pagoda.train.mlp`.
"""

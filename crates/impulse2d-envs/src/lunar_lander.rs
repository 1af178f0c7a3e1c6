//! `LunarLander-v3`: a lander fires its main and side engines to land on a pad.

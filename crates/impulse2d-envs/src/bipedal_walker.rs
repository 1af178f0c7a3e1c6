//! `BipedalWalker-v3`: a two-legged walker crosses rough terrain.

//! Unit tests of the GOST modes (streaming = one-shot, parameters).

//! The tichu rules core.

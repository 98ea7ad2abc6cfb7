//! The doudizhu rules core.

//! Shared harness of the end-to-end tests.

"""Local fakes of the platforms' servers (127.0.0.1): the adapters' tests run the real client libraries against them."""

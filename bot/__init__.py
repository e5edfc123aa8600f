"""schoolbot core: matching, dialogue, answers and broadcasts. Never imports a platform library."""

"""The engine's session for the app: the contract's methods answered by components that mark them
(``registry.handles``); ``engine.EngineService`` puts them together."""

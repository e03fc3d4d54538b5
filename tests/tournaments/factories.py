"""factory_boy factories for tournaments and entries (players and clubs: tests.games.factories)."""

import factory

from tests.games.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.models import Entry, Tournament

__all__ = ["ClubFactory", "EntryFactory", "PlayerFactory", "TournamentFactory", "UserFactory"]


class TournamentFactory(factory.django.DjangoModelFactory):
    """A tournament open for registration; its creator is its organiser."""

    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Cup {n}")
    club = factory.SubFactory(ClubFactory)
    created_by = factory.SubFactory(UserFactory)
    format = Tournament.Format.SINGLE_ELIMINATION
    status = Tournament.Status.REGISTRATION
    registration_open = True
    match_length = 1

    @factory.post_generation
    def organisers(self, create: bool, extracted: list | None, **kwargs: object) -> None:
        if create:
            self.organisers.add(self.created_by, *(extracted or []))


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)

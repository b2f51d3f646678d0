"""The staff's tournaments in the admin: browsable, the history read-only, the actions
(feature, cancel, remove a player) through the services."""

from __future__ import annotations

import pytest
from django.test import Client

from tournaments.models import Entrant, Pairing, Round, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db(transaction=True)
URL = "/api/v1/tournaments/"


@pytest.fixture
def staff(make_user):
    client = Client()
    client.force_login(make_user("staffer", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def running(seat):
    alice, bob, carol = seat("alice"), seat("bob"), seat("carol")
    t = alice.client.post(URL, {"name": "Cup", "system": "swiss", "rounds": 2, "length": 1},
                          format="json").json()
    for s in (alice, bob, carol):
        s.client.post(f"{URL}{t['id']}/join/", format="json")
    alice.client.post(f"{URL}{t['id']}/start/", format="json")
    return Tournament.objects.get(pk=t["id"])


@pytest.mark.parametrize("model", ["tournament", "entrant", "round", "pairing",
                                   "tournamentevent"])
def test_every_list_and_page_opens(staff, running, model):
    assert staff.get(f"/admin/tournaments/{model}/").status_code == 200
    row = {"tournament": running, "entrant": Entrant.objects.first(),
           "round": Round.objects.first(), "pairing": Pairing.objects.first(),
           "tournamentevent": TournamentEvent.objects.first()}[model]
    assert staff.get(f"/admin/tournaments/{model}/{row.pk}/change/").status_code == 200


@pytest.mark.parametrize("model", ["entrant", "round", "pairing", "tournamentevent"])
def test_the_history_is_read_only(staff, running, model):
    assert staff.get(f"/admin/tournaments/{model}/add/").status_code == 403
    row = {"entrant": Entrant.objects.first(), "round": Round.objects.first(),
           "pairing": Pairing.objects.first(),
           "tournamentevent": TournamentEvent.objects.first()}[model]
    assert staff.post(f"/admin/tournaments/{model}/{row.pk}/delete/").status_code == 403


def test_feature_cancel_and_remove(staff, running):
    changelist = "/admin/tournaments/tournament/"
    staff.post(changelist, {"action": "feature", "_selected_action": [running.pk]})
    assert Tournament.objects.get(pk=running.pk).featured is True
    entrant = Entrant.objects.filter(tournament=running).first()
    staff.post("/admin/tournaments/entrant/", {"action": "remove",
                                               "_selected_action": [entrant.pk]})
    assert Entrant.objects.get(pk=entrant.pk).removed is True
    staff.post(changelist, {"action": "cancel", "_selected_action": [running.pk]})
    cancelled = Tournament.objects.get(pk=running.pk)
    assert (cancelled.status, cancelled.cancelled) == ("finished", True)
    assert TournamentEvent.objects.filter(tournament=running).last().type == "finished"
    # once started, its terms are fixed
    assert staff.post(f"{changelist}{running.pk}/change/", {"name": "X"}).status_code == 403

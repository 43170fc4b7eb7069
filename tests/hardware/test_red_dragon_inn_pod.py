"""The Red Dragon Inn from the players' own pods: "Ana buys Ben a drink; Ben drinks a Wine with an Ale
chaser", by button events only, presses counted."""
from __future__ import annotations

from tablekeeper.hardware.pod import MAIN, UP

from .test_controller import Table


def test_ana_buys_ben_a_drink_and_ben_drinks_a_wine_with_an_ale_chaser_from_their_pods():
    """«3. Compre bebidas» straight from phase 1, then «4. Beber» with «Cazadores», each on its own pod."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.click("Ana", MAIN)  # drink for Ben: phases 1 and 2 cost nothing
    assert t.done == [{"action": "buy", "player": "Ana", "to": "Ben"}] and t.presses == 1
    assert t.state["players"][1]["counters"]["drink_me"] == 2
    # Ana's own drink, an Ale: the drink by name, the rest skipped with a hold
    t.click("Ana", MAIN)
    t.click("Ana", UP)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("drink", "ale")
    t.hold("Ana", MAIN)
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "drink", "player": "Ana", "drink": "ale"} and t.presses == 5
    assert t.state["turn"]["player"] == "Ben"
    t.presses = 0
    t.click("Ben", MAIN)  # drink for Cai
    assert t.done[-1] == {"action": "buy", "player": "Ben", "to": "Cai"}
    t.click("Ben", MAIN)  # the drink: which one?
    t.click("Ben", UP, 2)  # – → ale → wine
    t.click("Ben", MAIN)  # its chaser
    t.click("Ben", UP)  # – → ale
    assert (t.view("Ben").prompt, t.view("Ben").value) == ("chaser", "ale")
    t.hold("Ben", MAIN)  # no other card: straight to the preview
    view = t.view("Ben")
    assert view.screen == "preview" and view.lines[0] == "Ben: alcohol +3, drink_me −2"
    t.click("Ben", MAIN)
    assert t.done[-1] == {"action": "drink", "player": "Ben", "drink": "wine", "chaser": "ale"}
    assert t.presses == 8  # 1 for the buy, 7 for the drink with its chaser
    ben = t.state["players"][1]["counters"]
    assert (ben["alcohol"], ben["drink_me"]) == (3, 0)
    assert t.state["turn"]["player"] == "Cai" and t.said == []


def test_a_pass_out_from_a_drink_shows_on_every_pod_at_once():
    """«tienes una última oportunidad»: the drink's own effect opens the window before the next turn goes on."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"],
              actions=[{"action": "adjust", "player": "Ana", "counter": "alcohol", "delta": 19}])
    t.click("Ana", MAIN)  # drink for Ben
    t.click("Ana", MAIN)
    t.click("Ana", UP)  # ale: 19 + 1 = 20 ≥ 20
    t.hold("Ana", MAIN)
    t.click("Ana", MAIN)
    assert t.state["pending"] == [{"name": "Ana", "reason": "passing out"}]
    assert t.view("Ben").action == "resolve" and t.view("Cai").action == "resolve"
    t.click("Ben", MAIN)
    assert t.state["players"][0]["out"] and t.state["turn"]["player"] == "Ben"


def test_each_other_player_pays_ana_from_anas_pod():
    """A table-wide payment is one action from the acting player's pod menu."""
    from tablekeeper.hardware.pod import DOWN

    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.menu_to("Ana", "everyone…")
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("counter", "gold")
    t.click("Ana", MAIN)
    t.click("Ana", DOWN, 2)  # each pays 2
    t.click("Ana", MAIN)
    t.click("Ana", UP)  # the other side: Ana herself
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("side", "player")
    t.hold("Ana", MAIN)
    t.click("Ana", MAIN)
    assert t.done == [{"action": "everyone", "player": "Ana", "counter": "gold", "delta": -2, "side": "player"}]
    assert [p["counters"]["gold"] for p in t.state["players"]] == [14, 8, 8]

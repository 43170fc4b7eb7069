"""The Red Dragon Inn from the players' own pods, by button events only, presses counted.

What the pod offers (``seat_actions``) is on the pod's bottom bar; up/down go
through the offers, main does the one shown. Each test is a small table story.
"""
from __future__ import annotations

from tablekeeper.engine.state import canonical
from tablekeeper.hardware.pod import DOWN, HOLD, MAIN, PRESS, RELEASE, REPEAT, SELECT, UP

from .test_controller import Table


def test_ana_buys_ben_a_drink_and_ben_drinks_a_wine_with_an_ale_chaser_from_their_pods():
    """«3. Compre bebidas» straight from phase 1, then «4. Beber» with «Cazadores», each on its own pod:
    «La bebida original y sus cazadores cuentan como una sola bebida»."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.click("Ana", MAIN)  # drink for Ben: phases 1 and 2 cost nothing
    assert t.done == [{"action": "buy", "player": "Ana", "to": "Ben"}] and t.presses == 1
    assert t.state["players"][1]["counters"]["drink_me"] == 2
    view = t.view("Ana")  # phase 4: the common drinks by name, the first shown
    assert view.choosing and (view.action, view.pick, view.choices) == ("ale +1", 0, 39)
    t.click("Ana", MAIN)  # an Ale: one press
    assert t.done[-1] == {"action": "drink", "player": "Ana", "drink": "ale"} and t.presses == 2
    assert t.state["turn"]["player"] == "Ben"
    t.presses = 0
    # the first offer: whoever is nearest to passing out (Ana drank an Ale), not Cai on Ben's left
    assert t.view("Ben").action == "drink for Ana"
    t.click("Ben", MAIN)
    assert t.done[-1] == {"action": "buy", "player": "Ben", "to": "Ana"}
    t.hold("Ben", DOWN, repeats=14)  # press, hold, 14 repeats: past the drinks and the chaser totals to wine + chaser
    assert t.view("Ben").action == "wine + chaser…"
    t.click("Ben", MAIN)  # the chaser is asked, from the first common drink
    assert (t.view("Ben").prompt, t.view("Ben").value) == ("chaser", "ale")
    t.click("Ben", MAIN)  # the last step: done
    assert t.done[-1] == {"action": "drink", "player": "Ben", "drink": "wine", "chaser": "ale"}
    assert t.presses == 4  # 1 for the buy, 3 for the drink with its chaser
    ben = t.state["players"][1]["counters"]
    assert (ben["alcohol"], ben["drink_me"]) == (3, 0)
    assert t.state["turn"]["player"] == "Cai" and t.said == []


def test_the_chaser_an_offer_promises_has_no_blank_between_the_first_drink_and_other():
    """«Si la Bebida tiene un Cazador, revela la siguiente carta»: "wine + chaser…" names a chaser, so its
    step goes round the drinks by name and "other" only — one `down` from ale is "other" (a card of another
    box), not a "–" that would record the wine with no chaser at all."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.click("Ana", MAIN)  # drink for Ben
    t.hold("Ana", DOWN, repeats=14)
    assert t.view("Ana").action == "wine + chaser…"
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("chaser", "ale")
    seen = []
    for _ in range(12):  # once round the list and more
        t.click("Ana", DOWN)
        seen.append(t.view("Ana").value)
    assert seen[0] == "other" and "–" not in seen
    while t.view("Ana").value != "other":
        t.click("Ana", DOWN)
    t.click("Ana", MAIN)  # other: what it does is asked
    assert t.view("Ana").prompt.startswith("alcohol")


def test_a_chasers_own_chaser_is_one_offer_asking_the_three_drinks_by_name():
    """«Si es otra Bebida con un Cazador, agrega sus efectos a la Bebida original y revela la siguiente Carta
    de Bebida del mismo mazo»: wine with a chaser, its chaser an ale with a chaser, then an ale — one held
    press up to the offer, the three drinks by name, each starting at ale: 6 presses, one drink of 3 cards."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.match.apply({"action": "adjust", "player": "Ana", "counter": "drink_me", "delta": 2})
    t.click("Ana", MAIN)  # drink for Ben
    t.presses = 0
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    t.hold("Ana", UP, repeats=len(labels) - labels.index("drink + 2 chasers") - 2)  # the press, the hold, repeats
    assert t.view("Ana").action == "drink + 2 chasers…"
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("drink: alcohol +1", "ale")  # what it does, beside
    t.click("Ana", UP)
    assert t.view("Ana").value == "wine"
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("chaser", "ale")
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("second chaser", "ale")
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "drink", "player": "Ana", "drink": "wine", "chaser": "ale", "second_chaser": "ale"}
    assert t.presses == 6
    ana = t.state["players"][0]["counters"]
    assert (ana["alcohol"], ana["drink_me"]) == (4, 0) and t.state["turn"]["player"] == "Ben"


def test_the_menus_drink_entry_leaves_the_drink_and_its_chasers_out_until_given():
    """The chasers' offers start their steps at ale, but the menu's full `drink…` entry (any drink by its
    amounts) keeps "–" for the named drink and both chasers: left there, none is in the action."""
    from tablekeeper.ui.pod import grammar

    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    item = next(i for i in grammar.menu(t.rules, t.state, "Ben") if i.kind != grammar.SEAT
                and i.action.get("action") == "drink")  # a drink a card makes Ben take on Ana's turn
    steps = {a.field.name: a for a in grammar.asks(t.rules, t.state, "Ben", item)}
    assert all(steps[n].unset and steps[n].start(item.action.get(n)) is None
               for n in ("drink", "chaser", "second_chaser"))
    t.click("Ana", MAIN)  # drink for Ben: Ana's phase 4
    offer = next(o for o in t.rules.seat_actions(t.state, "Ana") if str(o["label"]) == "drink + 2 chasers")
    assert [offer["action"][n] for n in ("drink", "chaser", "second_chaser")] == ["ale"] * 3


def _tied_contest() -> Table:
    """Three players; Ana's drinking contest: Ana and Ben drink wine (+2), Cai an ale — Ana and Ben tied."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.match.apply({"action": "buy", "player": "Ana", "to": "Ben"})
    t.match.apply({"action": "drink_event", "player": "Ana", "kind": "contest"})
    for who, d in (("Ana", "wine"), ("Ben", "wine"), ("Cai", "ale")):
        t.match.apply({"action": "drink", "player": who, "extra": True, "from": "deck", "drink": d})
    return t


def test_a_tied_contests_win_is_main_then_main_on_the_winner_and_one_stray_main_pays_nobody():
    """«siga las instrucciones de la carta»: after a drinking contest the device found tied, the tied
    players' pods offer the win first; one main opens the question (the winner, from the presser), the
    second pays — a stray main changes nothing."""
    t = _tied_contest()
    gold = [p["counters"]["gold"] for p in t.state["players"]]
    assert t.view("Ben").action == "contest won: each pays 1…"
    t.click("Ben", MAIN)
    assert [p["counters"]["gold"] for p in t.state["players"]] == gold  # the question only
    assert (t.view("Ben").prompt, t.view("Ben").value) == ("player", "Ben")
    t.click("Ben", MAIN)
    assert [p["counters"]["gold"] for p in t.state["players"]] == [gold[0] - 1, gold[1] + 2, gold[2] - 1]
    assert t.presses == 2 and "contest_tie" not in t.state


def test_a_tied_contests_tie_break_is_two_presses_then_each_tied_player_drinks_on_their_own_pod():
    """A reader's copy of «¡Concurso de bebida!»: «los empatados revelan otra carta, la beben y la suman, hasta
    desempatar». A tied player's pod: down, main starts the tie-break; each tied player's drink from the deck is
    then their pod's first offers (an Ale: main), and the device pays the winner — the tie-break's 2 drinks and
    the payment were 30 presses through the menu on the ninth story."""
    t = _tied_contest()
    gold = [p["counters"]["gold"] for p in t.state["players"]]
    t.click("Ben", DOWN)
    assert t.view("Ben").action == "contest tie: drink again"
    t.click("Ben", MAIN)
    assert t.state["drink_event"]["waiting"] == ["Ana", "Ben"]
    assert t.view("Ana").action == t.view("Ben").action == "ale +1"
    t.click("Ana", MAIN)
    t.click("Ben", DOWN)
    assert t.view("Ben").action == "wine +2"
    t.click("Ben", MAIN)
    assert [p["counters"]["gold"] for p in t.state["players"]] == [gold[0] - 1, gold[1] + 2, gold[2] - 1]
    assert t.presses == 5 and "drink_event" not in t.state


def test_a_drink_card_no_common_drink_matches_is_one_held_press_and_main():
    """«siga las instrucciones de la carta»: a drink of another box (+3 alcohol, −1 fortitude) is an offer
    by what it does, not every field of "other drink"; the same on a drink event's card from the deck."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.click("Ana", MAIN)  # drink for Ben
    t.presses = 0
    t.hold("Ana", DOWN, repeats=23)  # past the 8 drinks by name, 7 chaser totals and the 8 with a chaser
    assert t.view("Ana").action == "alcohol +3, fortitude −1"
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "drink", "player": "Ana", "alcohol": 3, "fortitude": -1} and t.presses == 2
    ana = t.state["players"][0]["counters"]
    assert (ana["alcohol"], ana["fortitude"]) == (3, 19)
    t.match.apply({"action": "buy", "player": "Ben", "to": "Cai"})
    t.match.apply({"action": "drink_event", "player": "Ben", "kind": "round"})
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Cai")]
    assert "alcohol +2, fortitude +1" in labels  # everyone's card from the deck, on their own pod


def test_a_pass_out_from_a_drink_shows_on_every_pod_at_once():
    """«tienes una última oportunidad»: the drink's own effect opens the window before the next turn goes on;
    the player passing out ends it (resolve, on their pod only: a stray main on another's pod must not end
    it), the others may play a card on someone meanwhile."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"],
              actions=[{"action": "adjust", "player": "Ana", "counter": "alcohol", "delta": 19}])
    t.click("Ana", MAIN)  # drink for Ben
    t.click("Ana", MAIN)  # ale: 19 + 1 = 20 ≥ 20
    assert t.state["pending"] == [{"name": "Ana", "reason": "passing out"}]
    assert t.view("Ana").action == "resolve"
    assert t.view("Ben").action != "resolve" and t.view("Cai").action != "resolve"
    t.click("Ana", MAIN)  # giving up the last chance puts her out: its preview first, so a reflex main…
    assert t.view("Ana").screen == "preview" and not t.state["players"][0]["out"]
    t.click("Ana", SELECT)  # …can be taken back: nothing changed
    assert t.view("Ana").screen == "home" and t.state["pending"] == [{"name": "Ana", "reason": "passing out"}]
    t.click("Ana", MAIN, 2)  # resolve, OK
    assert t.state["players"][0]["out"] and t.state["turn"]["player"] == "Ben"


def test_a_drink_is_offered_first_for_whoever_is_nearest_to_passing_out():
    """«Si su contenido de alcohol es mayor o igual a su entereza, cae inconsciente … Estás fuera del juego»:
    the drink bought goes, as a rule, to the player nearest to passing out; among equals, from the left."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai", "Dee"])
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")][:3]
    assert labels == ["drink for Ben", "drink for Cai", "drink for Dee"]  # all alike: from Ana's left
    t.match.apply({"action": "adjust", "player": "Dee", "counter": "alcohol", "delta": 5})
    t.match.apply({"action": "adjust", "player": "Cai", "counter": "fortitude", "delta": -2})
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")][:3]
    assert labels == ["drink for Dee", "drink for Cai", "drink for Ben"]
    t.click("Ana", MAIN)  # one press: the likeliest
    assert t.done == [{"action": "buy", "player": "Ana", "to": "Dee"}]


def test_a_card_that_costs_another_player_fortitude_is_two_presses_on_the_players_pod():
    """«2. Acción: Juega una Carta de Acción» — Ana picks a fight with Cai: Cai loses 2 fortitude. A held main
    does the offer again at the hold and at every repeat, like a held ± on a counter."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    labels = [t.view("Ana").action]
    for _ in range(4):
        t.click("Ana", DOWN)
        labels.append(t.view("Ana").action)
    assert labels == ["drink for Ben", "drink for Cai", "gamble", "Ben: fortitude −1", "Cai: fortitude −1"]
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.hold("Ana", DOWN, repeats=2)  # one press, held: drink for Cai, gamble, Ben, Cai
    assert t.view("Ana").action == "Cai: fortitude −1"
    t.hold("Ana", MAIN)  # the press, then the hold: −2
    assert t.done == [{"action": "adjust", "player": "Cai", "counter": "fortitude", "delta": -1}] * 2
    assert t.state["players"][2]["counters"]["fortitude"] == 18 and t.presses == 2
    assert (t.state["turn"]["player"], t.state["turn"]["phase"]) == ("Ana", "discard")  # still phases 1–2
    assert t.view("Ana").action == "drink for Cai"  # let go: the most likely again (Cai, 2 fortitude down)
    t.hold("Ana", DOWN, repeats=1)  # Cai's hit first now: the one nearest to passing out, as the drinks
    assert t.view("Ana").action == "Cai: fortitude −1"
    t.hold("Ana", MAIN, repeats=1)  # −3: press, hold, one repeat
    assert t.state["players"][2]["counters"]["fortitude"] == 15
    t.hold("Ana", DOWN, repeats=1)
    t.click("Ana", MAIN)  # a click: −1 only
    assert t.state["players"][2]["counters"]["fortitude"] == 14
    t.click("Ana", SELECT)  # off the offers: to the counters, fortitude first (a card that gains or costs it)
    assert not t.view("Ana").choosing
    t.click("Ana", DOWN)  # (at 20 an up changes nothing: said, nothing sent)
    assert t.done[-1] == {"action": "adjust", "player": "Ana", "counter": "fortitude", "delta": -1}


def test_a_card_clicked_once_stays_shown_so_each_click_is_one_point():
    """A play-tester gave Dee two extra drinks by two clicks, not trusting a hold's count: after the first
    the bar was back at the most likely offer and the second cost five presses. A repeat offer clicked
    stays shown, so a second click does it once more (one press a point, as paper's one token a move);
    after a hold the player has chosen the count, and the most likely offer is shown again."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.hold("Ana", DOWN, repeats=2)
    assert t.view("Ana").action == "Cai: fortitude −1"
    t.presses = 0
    t.click("Ana", MAIN)
    assert t.view("Ana").action == "Cai: fortitude −1"
    t.click("Ana", MAIN)
    assert t.state["players"][2]["counters"]["fortitude"] == 18 and t.presses == 2
    t.hold("Ana", MAIN)  # −2 more, held
    assert t.state["players"][2]["counters"]["fortitude"] == 16
    assert t.view("Ana").action == "drink for Cai"  # held: the most likely again


def test_a_gambling_go_plays_a_card_or_passes_from_the_pod():
    """«En su turno, puede jugar una carta de juego o trampa o pasar»; «solo se pueden usar las tarjetas de
    trampa para tomar el control» after «¡Mano ganadora!»; a card that makes everyone ante is its own offer."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.hold("Ana", DOWN)  # one press, held: drink for Cai, gamble
    assert t.view("Ana").action == "gamble"
    t.click("Ana", MAIN)
    assert t.state["gambling"]["to_act"] == "Ben"
    view = t.view("Ben")
    assert view.choosing and view.action == "pass"
    # not Cai's go: only the cards played out of turn (the round ended, leaving it), behind a second press
    assert t.view("Cai").action == "pot to the Inn…" and t.view("Cai").choices == 2
    cai = t.state
    t.click("Cai", MAIN)  # a stray main: the step opens, nothing changes
    assert t.state is cai and t.view("Cai").prompt == "by"
    t.click("Cai", SELECT)  # back
    t.click("Ben", UP)  # up from the first wraps: leave the round, then the players thrown out
    assert t.view("Ben").action == "leave the round"
    t.click("Ben", UP)
    assert t.view("Ben").action == "Ana out of the round"  # the one in control nearest
    t.click("Ben", UP, 2)  # Cai out of the round, then a card that gives the pot to the Inn
    assert t.view("Ben").action == "pot to the Inn"
    t.click("Ben", UP)
    assert t.view("Ben").action == "cheat: everyone antes 1"
    t.click("Ben", UP, 2)  # gambling, winning hand
    assert t.view("Ben").action == "winning hand"
    t.click("Ben", MAIN)
    assert t.done[-1] == {"action": "play", "player": "Ben", "card": "winning_hand"}
    offers = []
    for _ in range(t.view("Cai").choices):
        offers.append(t.view("Cai").action)
        t.click("Cai", DOWN)
    assert offers == ["pass", "cheat", "cheat: everyone antes 1", "pot to the Inn", "Ana out of the round",
                      "Ben out of the round", "leave the round"]
    t.click("Cai", MAIN)  # back at the first: pass
    assert t.done[-1] == {"action": "pass", "player": "Cai"}


def test_a_player_not_to_act_in_a_gambling_round_has_her_own_track_one_press_up():
    """A play-tester's Serena answered Ben's cheat out of turn with a card that also gave her piety +1: her pod
    offered only the cards played out of turn, and the piety took select, select, up. Her track is offered
    there too, the last lines: one press up, and the first offer still asks before it changes anything."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"], {"characters": {"Ana": "Serena"}})
    t.hold("Ana", DOWN)  # drink for Ben, gamble
    t.click("Ana", MAIN)
    t.match.apply({"action": "play", "player": "Ben", "card": "cheat"})  # Ben's cheat; Cai to act
    assert t.state["gambling"]["to_act"] == "Cai"
    assert t.view("Ana").action == "negate Ben's cheat…"  # a stray main asks first
    piety = t.state["players"][0]["counters"]["piety"]
    t.click("Ana", UP)  # up from the first wraps to the last: piety −1, then piety +1
    t.click("Ana", UP)
    assert t.view("Ana").action == "piety +1"
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "adjust", "player": "Ana", "counter": "piety", "delta": 1}
    assert t.state["players"][0]["counters"]["piety"] == piety + 1 and t.state["gambling"]["to_act"] == "Cai"


def test_on_her_own_gambling_go_a_player_has_her_own_track_before_the_cards_on_the_others():
    """A seventh rulebook reader's Serena, to act, answered a cheat with «¡Mi espada sagrada detecta mentiras!»,
    which also gave her piety +1: select, select, up (3 presses). Her track is offered on her go, after the pot
    to the Inn and before the cards that throw a player out — «leave the round» stays one up from pass."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"], {"characters": {"Ana": "Serena"}})
    t.hold("Ana", DOWN)  # drink for …, gamble
    t.click("Ana", MAIN)
    t.match.apply({"action": "pass", "player": "Ben"})
    t.match.apply({"action": "play", "player": "Cai", "card": "cheat"})
    assert t.state["gambling"]["to_act"] == "Ana"
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    assert labels.index("pot to the Inn") < labels.index("piety +1") < labels.index("negate Cai's cheat")
    assert labels[-1] == "leave the round"
    piety = t.state["players"][0]["counters"]["piety"]
    t.hold("Ana", DOWN, repeats=labels.index("piety +1") - 2)
    assert t.view("Ana").action == "piety +1"
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "adjust", "player": "Ana", "counter": "piety", "delta": 1}
    assert t.state["players"][0]["counters"]["piety"] == piety + 1 and t.state["gambling"]["to_act"] == "Ana"


def test_wizgilles_device_on_two_players_and_its_two_extra_drinks_are_two_presses_each():
    """The rulebook's worked example: Wizgille's gear card «¡Demasiado vapor!» «elige a Kaylin y Phrenk para
    que cada uno pierda 1 entereza», then «puede darle una o ambas Bebidas adicionales». A rulebook reader's
    Wizgille entered it as two hits and two extra drinks, 8 presses: on a Wizgille's pod each pair of other
    players is one line for the hit and one for the drinks, in seat order from the left (a tester's pairs, in the
    drinks' order, moved once the hit had changed who is nearest to passing out)."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai", "Dee"], {"characters": {"Ana": "Wizgille"}})
    t.match.apply({"action": "adjust", "player": "Dee", "counter": "alcohol", "delta": 5})
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    assert [x for x in labels if ": fortitude −1" in x and ", " in x] == [
        "Ben, Cai: fortitude −1", "Ben, Dee: fortitude −1", "Cai, Dee: fortitude −1"]
    assert [x for x in labels if x.startswith("extra drinks: ")] == [
        "extra drinks: Ben, Cai", "extra drinks: Ben, Dee", "extra drinks: Cai, Dee"]
    t.hold("Ana", DOWN, repeats=labels.index("Ben, Cai: fortitude −1") - 2)
    t.click("Ana", MAIN)
    assert t.done == [{"action": "adjust", "player": "Ben", "also": "Cai", "counter": "fortitude", "delta": -1}]
    assert [p["counters"]["fortitude"] for p in t.state["players"]] == [20, 19, 19, 20] and t.presses == 2
    after = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    assert [x for x in after if ", " in x] == [x for x in labels if ", " in x]  # the pairs stay where they were
    t.hold("Ana", UP, repeats=len(after) - after.index("extra drinks: Cai, Dee") - 2)
    assert t.view("Ana").action == "extra drinks: Cai, Dee"
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "buy", "player": "Ana", "to": "Cai", "also": "Dee", "extra": True}
    assert [p["counters"]["drink_me"] for p in t.state["players"]] == [1, 1, 2, 2] and t.presses == 4
    assert (t.state["turn"]["player"], t.state["turn"]["phase"]) == ("Ana", "discard")
    # another character's pod has no pair lines: its card is on one player
    t.match.apply({"action": "buy", "player": "Ana", "to": "Ben"})
    t.match.apply({"action": "drink", "player": "Ana", "drink": "ale"})
    assert t.state["turn"]["player"] == "Ben"
    assert not [o for o in t.rules.seat_actions(t.state, "Ben") if "also" in o["action"]]


def test_a_card_that_throws_the_player_in_control_out_of_the_round_is_two_presses():
    """A card that exposes a cheat throws its player out of the gambling round («¡Mi espada sagrada
    detecta mentiras!»): the player in control is the one offered first among those thrown out, so a
    press down past the cards (held) and main — not the menu's "force out" with its player asked. The
    cheat is negated: control goes back to Ana, who started the round (every rulebook reader's sword)."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai", "Dee"])
    t.hold("Ana", DOWN, repeats=1)  # drink for …, drink for …, gamble
    assert t.view("Ana").action == "gamble"
    t.click("Ana", MAIN)
    t.click("Ben", DOWN)  # cheat, the first card (the stories' most played)
    assert t.view("Ben").action == "cheat"
    t.click("Ben", MAIN)
    presses = t.presses
    t.hold("Cai", UP)  # up from pass, held: leave the round, then the one in control
    assert t.view("Cai").action == "negate Ben's cheat"
    t.click("Cai", MAIN)
    assert t.done[-1] == {"action": "force_out", "player": "Ben", "negates": True} and t.presses - presses == 2
    assert "Ben" not in t.state["gambling"]["players"] and t.state["gambling"]["control"] == "Ana"


def test_an_extra_drink_from_a_card_keeps_the_turn_in_phase_two():
    """«No se puede ignorar la compra de bebidas» — a card's extra drinks go on a pile without ending Ana's
    phases: two extra drinks for Cai are the offer, then main held."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.click("Ana", UP, 4)  # up from the first wraps: everyone…, pay the Inn 1 gold, gold from the Inn, extra drink for Cai
    assert t.view("Ana").action == "extra drink for Cai"
    t.hold("Ana", MAIN)
    assert t.done == [{"action": "buy", "player": "Ana", "to": "Cai", "extra": True}] * 2
    assert t.state["players"][2]["counters"]["drink_me"] == 3
    assert t.state["turn"]["player"] == "Ana" and t.state["turn"]["phase"] != "drink"


def test_the_extra_drinks_go_in_the_drinks_order_nearest_to_passing_out_first():
    """A play-tester's held press, which had learnt that the drinks and the hits go nearest to passing out first,
    stopped on the wrong "extra drink for …": those went from the left. They go in the drinks' order."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai", "Dee"])
    t.match.apply({"action": "adjust", "player": "Dee", "counter": "alcohol", "delta": 5})
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    drinks = [x.removeprefix("drink for ") for x in labels if x.startswith("drink for ")]
    extras = [x.removeprefix("extra drink for ") for x in labels if x.startswith("extra drink for ")]
    # the cards that make another player gain alcohol too (a play-tester's held press stopped on "Dee: alcohol +1",
    # the player on the left, for Ben)
    alcohol = [x.removesuffix(": alcohol +1") for x in labels if x.endswith(": alcohol +1")]
    assert drinks == extras == alcohol == ["Dee", "Ben", "Cai"]


def test_a_card_that_costs_its_player_gold_to_the_inn_is_two_presses_on_the_players_pod():
    """A card whose player pays the Inn («Wulfric destroza una silla»: Dee pays 2 gold to the Inn, in a
    rulebook reader's story) went through select to the gold counter, 5 presses: it is the offer before
    the table-wide one, held for more; nobody else's gold changes."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.click("Ana", UP, 2)  # up from the first wraps: everyone…, pay the Inn 1 gold
    assert t.view("Ana").action == "pay the Inn 1 gold"
    t.hold("Ana", MAIN)  # the press, then the hold: 2 gold
    assert t.done == [{"action": "adjust", "player": "Ana", "counter": "gold", "delta": -1}] * 2
    assert [p["counters"]["gold"] for p in t.state["players"]] == [8, 10, 10]
    assert (t.state["turn"]["player"], t.state["turn"]["phase"]) == ("Ana", "discard")  # still phases 1–2


def test_a_card_that_pays_its_player_from_the_inn_is_two_presses_on_the_players_pod():
    """A rulebook reader's «Poción dorada» paid Cai 2 gold from the Inn: a play-tester went through select to
    the gold counter, 5 presses. It is the offer before the payment to the Inn, held for more."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.click("Ana", UP, 3)  # up from the first wraps: everyone…, pay the Inn 1 gold, gold from the Inn
    assert t.view("Ana").action == "gold from the Inn"
    t.hold("Ana", MAIN)  # the press, then the hold: 2 gold
    assert t.done == [{"action": "adjust", "player": "Ana", "counter": "gold", "delta": 1}] * 2
    assert [p["counters"]["gold"] for p in t.state["players"]] == [12, 10, 10]
    assert t.state["table"]["inn"] == -2  # the Inn's take since the setup: it paid
    assert (t.state["turn"]["player"], t.state["turn"]["phase"]) == ("Ana", "discard")


def test_each_other_player_pays_ana_from_anas_pod():
    """A table-wide payment is one action from the acting player's pod: the last offer of phases 1–2."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.click("Ana", UP)  # up from the first wraps to the last
    assert t.view("Ana").action == "everyone…"
    t.click("Ana", MAIN)
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("counter", "gold")
    t.click("Ana", MAIN)
    t.click("Ana", DOWN, 2)  # each pays 2
    t.click("Ana", MAIN)
    t.click("Ana", UP)  # the other side: Ana herself
    assert (t.view("Ana").prompt, t.view("Ana").value) == ("side", "player")
    t.click("Ana", MAIN)
    t.click("Ana", UP)  # every other player
    assert (t.view("Ana").prompt, t.view("Ana").value, t.view("Ana").step) == ("others", "yes", "4/4")
    t.click("Ana", MAIN)  # the last step: done
    assert t.done == [{"action": "everyone", "player": "Ana", "counter": "gold", "delta": -2, "side": "player",
                       "others": True}]
    assert [p["counters"]["gold"] for p in t.state["players"]] == [14, 8, 8]


def test_a_card_that_makes_another_player_gain_alcohol_is_two_presses_on_the_players_pod():
    """A potion given to another player («Prueba esta poción»: Cai makes Dee drink a fire potion, alcohol
    +2, in a rulebook reader's story) was the menu's adjust, 9 presses; it is an offer of phases 1–2 after
    the takes, 1 a press, held for more — and only the player it names changes."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    assert labels.index("Ben: alcohol +1") > labels.index("each pays you 1 gold")
    t.hold("Ana", DOWN, repeats=labels.index("Cai: alcohol +1") - 2)
    assert t.view("Ana").action == "Cai: alcohol +1"
    t.hold("Ana", MAIN)  # the press, then the hold: +2
    assert t.done == [{"action": "adjust", "player": "Cai", "counter": "alcohol", "delta": 1}] * 2
    assert [p["counters"]["alcohol"] for p in t.state["players"]] == [0, 0, 2] and t.presses == 2
    assert (t.state["turn"]["player"], t.state["turn"]["phase"]) == ("Ana", "discard")  # still phases 1–2


def test_a_card_that_lowers_another_players_alcohol_is_an_offer_after_the_gains():
    """A potion that backfires and helps its drinker (a seventh rulebook reader's «Elixir de sobriedad»: Cai's
    potion on Ben, Ben's alcohol −2) was the menu's adjust, 9 presses: one offer per other player right after
    the alcohol gains, 1 a press, held for more — and only the player it names changes."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.match.apply({"action": "adjust", "player": "Ben", "counter": "alcohol", "delta": 4})
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    assert labels.index("Ben: alcohol −1") > max(labels.index("Ben: alcohol +1"), labels.index("Cai: alcohol +1"))
    assert labels.index("Ben: alcohol −1") < labels.index("extra drink for Ben")
    t.hold("Ana", DOWN, repeats=labels.index("Ben: alcohol −1") - 2)
    assert t.view("Ana").action == "Ben: alcohol −1"
    t.hold("Ana", MAIN)  # the press, then the hold: −2
    assert t.done == [{"action": "adjust", "player": "Ben", "counter": "alcohol", "delta": -1}] * 2
    assert [p["counters"]["alcohol"] for p in t.state["players"]] == [0, 2, 0]


def test_the_card_main_is_held_on_stays_under_the_finger_while_the_offers_change():
    """A play-tester's Ben, in his last chance, held main on "Dee: fortitude −1" for a card of −2: after the
    first −1 Dee was passing out too, the offers changed and the bar showed "resolve" (which ends his own
    chance) under his finger. The held card stays shown until main is let go."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.match.apply({"action": "adjust", "player": "Cai", "counter": "alcohol", "delta": 17})  # 17 vs 20
    t.hold("Ana", DOWN, repeats=1)  # Cai's hit the first: he is nearest to passing out
    assert t.view("Ana").action == "Cai: fortitude −1"
    t.event("Ana", MAIN, PRESS)
    t.event("Ana", MAIN, HOLD)
    t.event("Ana", MAIN, REPEAT)  # 20 → 17: Cai passes out, the offers change
    assert t.state["players"][2]["counters"]["fortitude"] == 17 and t.state["pending"]
    assert t.view("Ana").action == "Cai: fortitude −1"
    t.event("Ana", MAIN, RELEASE)
    assert t.view("Ana").action != "Cai: fortitude −1"  # let go: the offers as they are now


def test_the_other_pods_say_whose_last_chance_the_table_waits_for():
    """«tienes una última oportunidad de jugar cartas … para salvarte»: while Cai's last chance is open every
    move waits for it; the pod whose hit started it said only "your turn: discard" with new offers (a
    play-tester asked to be told). Every other pod's status names it; Cai's own says he is passing out."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.match.apply({"action": "adjust", "player": "Cai", "counter": "alcohol", "delta": 19})
    t.hold("Ana", DOWN, repeats=1)  # Cai's hit the first: he is nearest to passing out
    assert t.view("Ana").action == "Cai: fortitude −1"
    t.click("Ana", MAIN)
    assert t.state["pending"]
    assert t.view("Ana").status == t.view("Ben").status == "Cai: last chance"
    assert t.view("Cai").status == "PASSING OUT"
    t.click("Cai", MAIN, 2)  # resolve, OK: out
    assert not t.state["pending"] and t.view("Ana").status == "your turn: discard"


def test_the_turns_offers_stay_on_its_players_pod_during_anothers_last_chance():
    """«resolve, or any other action, applies them first»: Cai's last chance is open and it is Ana's turn;
    a play-tester's buy found nothing on the pod but the card for Cai. Her turn's offers follow that card,
    as they will be once Cai is out (no drink for him); a stray main still only asks the card's target."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.match.apply({"action": "adjust", "player": "Cai", "counter": "alcohol", "delta": 19})
    t.hold("Ana", DOWN, repeats=1)  # Cai's hit the first: he is nearest to passing out
    t.click("Ana", MAIN)  # Cai: fortitude −1: passing out
    assert t.state["pending"] and t.state["turn"]["player"] == "Ana"
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    assert labels[0] == "?: fortitude −1" and "drink for Ben" in labels and "drink for Cai" not in labels
    assert [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ben")] == ["?: fortitude −1"]  # not his turn
    t.click("Ana", DOWN, labels.index("drink for Ben"))
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "buy", "player": "Ana", "to": "Ben"}
    cai = next(p for p in t.state["players"] if p["name"] == "Cai")
    assert cai["out"] and not t.state["pending"]


def test_every_table_counter_is_said_from_the_pods_menu_two_lines_up():
    """The pod's corner has room for two of the table's rows (the Drink deck, whose turn): the Inn's gold
    and the pot were on no pod. The menu's "table counters", two lines up from its top (past undo),
    says every one where a message goes, changes nothing, and the pod is home again."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.match.apply({"action": "adjust", "player": "Ben", "counter": "gold", "delta": -4})  # paid to the Inn
    before = canonical(t.state)
    t.hold("Ana", SELECT)
    t.click("Ana", UP, 2)  # up from the top: undo, then the table's counters
    assert t.view("Ana").lines[t.pods["Ana"].cursor % len(t.view("Ana").lines)] == "table counters"
    t.click("Ana", MAIN)
    assert t.said[-1].translated(None) == "deck 27 · turn Ana · inn 4 · pot 0"
    assert canonical(t.state) == before and t.view("Ana").screen == "home" and t.presses == 4


def test_after_a_card_held_on_in_a_last_chance_the_pod_stays_on_that_card_not_on_resolve():
    """A play-tester's Ben, in his last chance, held main on "Dee: fortitude −1" for a −2: let go, the bar went
    back to "resolve", and one more main by reflex would have given up his own chance. "resolve" is guarded:
    after a card held on the pod stays on that card (another main is one more point on Dee)."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.match.apply({"action": "adjust", "player": "Ana", "counter": "alcohol", "delta": 20})  # Ana passing out
    t.match.apply({"action": "adjust", "player": "Ana", "counter": "fortitude", "delta": -1})
    assert t.state["pending"] and t.view("Ana").action == "resolve"
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    t.hold("Ana", DOWN, repeats=labels.index("Cai: fortitude −1") - 2)
    assert t.view("Ana").action == "Cai: fortitude −1"
    t.hold("Ana", MAIN)  # −2
    assert t.state["players"][2]["counters"]["fortitude"] == 18
    assert t.view("Ana").action == "Cai: fortitude −1" and t.state["pending"]
    t.click("Ana", MAIN)  # one more point, not the end of her chance
    assert t.state["players"][2]["counters"]["fortitude"] == 17 and t.state["pending"]


def test_in_her_own_last_chance_a_hit_goes_first_to_the_nearest_to_passing_out_and_her_track_is_offered():
    """«tienes una última oportunidad de jugar cartas»: a play-tester's Serena, at her last chance, played «¡Luz
    cegadora!» (Dee −1 fortitude, piety −1): Dee, nearest to passing out, was second of the hits (seat order), and
    the piety took select, select, down. The hits go as in the turn, the character's own track after them."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai", "Dee"], {"characters": {"Ana": "Serena"}})
    t.match.apply({"action": "adjust", "player": "Dee", "counter": "fortitude", "delta": -15})
    t.match.apply({"action": "adjust", "player": "Ana", "counter": "alcohol", "delta": 20})  # Ana passing out
    assert [e["name"] for e in t.state["pending"]] == ["Ana"]
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    assert labels[:4] + labels[-2:] == ["resolve", "Dee: fortitude −1", "Ben: fortitude −1", "Cai: fortitude −1",
                                        "piety +1", "piety −1"]
    assert all(x.startswith("gold from ") for x in labels[4:-2]) and len(labels) == 9  # gold taken, richest first
    t.click("Ana", DOWN)
    t.click("Ana", MAIN)  # Dee −1: two presses, her chance still open
    assert t.state["players"][3]["counters"]["fortitude"] == 4 and t.state["pending"]
    assert t.view("Ana").action == "Dee: fortitude −1"  # the pod stays on the card played
    t.click("Ana", UP)
    t.click("Ana", UP)  # past resolve, up round to the last offer: piety −1
    t.click("Ana", MAIN)
    assert t.done[-1] == {"action": "adjust", "player": "Ana", "counter": "piety", "delta": -1}
    assert t.state["players"][0]["counters"]["piety"] == 7 and t.state["pending"]


def test_a_card_that_takes_gold_from_another_player_is_two_presses_on_the_players_pod():
    """An action card that takes gold from one player (rulebook story: «Juega una Carta de Acción», Ben takes 2
    from Ana) was 10 presses through the menu's transfer; it is an offer of phases 1–2 after the hits, one coin
    a press, held for more."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.hold("Ana", DOWN, repeats=3)  # drink for Cai, gamble, Ben: fortitude, Cai: fortitude, gold from Ben
    assert t.view("Ana").action == "gold from Ben"
    t.hold("Ana", MAIN)  # the press, then the hold: 2 coins
    assert t.done == [{"action": "transfer", "from": "Ben", "to": "Ana", "counter": "gold", "amount": 1}] * 2
    assert [p["counters"]["gold"] for p in t.state["players"]] == [12, 8, 10] and t.presses == 2


def test_a_drink_and_its_chaser_ignored_by_a_card_are_two_presses():
    """«Ignora una bebida» (a card such as «¡Yo no pedí esto!»): the drink and its chasers are one drink, so one
    card ignores them all — both cards go to the discard, nothing else changes, and the turn moves on. A
    play-tester entered it as "other drink…" with every amount at 0: 7 presses for nothing."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.match.apply({"action": "buy", "player": "Cai", "to": "Ana", "extra": True})  # a second card on Ana's pile
    t.click("Ana", MAIN)  # drink for Ben
    before = t.state["players"][0]["counters"]
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    t.presses = 0
    t.hold("Ana", DOWN, repeats=labels.index("drink + chaser ignored") - 2)
    assert t.view("Ana").action == "drink + chaser ignored"
    t.click("Ana", MAIN)
    after = t.state["players"][0]["counters"]
    assert t.presses == 2 and after["drink_me"] == before["drink_me"] - 2 == 0
    assert (after["alcohol"], after["fortitude"]) == (before["alcohol"], before["fortitude"])
    assert t.state["turn"]["player"] == "Ben"


def test_a_drink_and_two_chasers_ignored_and_a_fortitude_only_drink_are_each_one_offer():
    """«Ignora una bebida»: a drink whose chaser had its own chaser, all three ignored together (a play-tester's
    went through "other drink…", 7 presses), and a house drink that only gives fortitude +1 (a rulebook reader's
    «Té de hierbas»: 6 presses the same way) — each one offer of the drink phase."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    for _ in range(2):
        t.match.apply({"action": "buy", "player": "Cai", "to": "Ana", "extra": True})
    t.match.apply({"action": "adjust", "player": "Ana", "counter": "fortitude", "delta": -3})
    t.click("Ana", MAIN)  # drink for Ben
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    assert labels.index("fortitude +1") == labels.index("alcohol +4, fortitude +1") + 1
    t.presses = 0
    t.hold("Ana", DOWN, repeats=labels.index("drink + 2 chasers ignored") - 2)
    assert t.view("Ana").action == "drink + 2 chasers ignored"
    t.click("Ana", MAIN)
    ana = t.state["players"][0]["counters"]
    assert t.presses == 2 and ana["drink_me"] == 0 and (ana["alcohol"], ana["fortitude"]) == (0, 17)
    t.click("Ben", MAIN)  # drink for Cai
    for _ in range(2):
        t.click("Ben", MAIN)
    t.click("Cai", MAIN)  # Cai buys Ana a drink: her pile 1
    t.click("Cai", MAIN)  # Cai drinks his
    t.click("Ana", MAIN)  # drink for Ben
    pile = t.state["players"][0]["counters"]["drink_me"]
    labels = [str(o["label"]) for o in t.rules.seat_actions(t.state, "Ana")]
    t.hold("Ana", DOWN, repeats=labels.index("fortitude +1") - 2)
    assert t.view("Ana").action == "fortitude +1"
    t.click("Ana", MAIN)
    ana = t.state["players"][0]["counters"]
    assert (ana["alcohol"], ana["fortitude"], ana["drink_me"]) == (0, 18, pile - 1)


def test_a_press_on_a_counter_at_its_bound_says_so_and_records_nothing():
    """«hasta un máximo de 20»: a play-tester's potion said +3 to a fortitude of 19; the second up on 20 showed
    "✓ fortitude +1" again, and an adjust that did nothing went into the history. At its bound the press says
    so and nothing is recorded."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.click("Ana", SELECT)  # fortitude, chosen
    t.click("Ana", UP)
    assert t.done == [] and t.state["players"][0]["counters"]["fortitude"] == 20
    assert str(t.said[-1]) == "fortitude is at its highest, 20"
    t.click("Ana", DOWN)
    assert t.done[-1] == {"action": "adjust", "player": "Ana", "counter": "fortitude", "delta": -1}


def test_a_last_chance_mid_contest_keeps_the_waiting_players_card_first_and_a_hit_asks_its_player():
    """«tienes una última oportunidad de jugar cartas»: while Cai's last chance is open in a drinking
    contest, Dee still owes «¡Concurso de bebida!»'s card from the deck — it stays her first offer; a card
    on someone is one `up` away and asks its player (from the one passing out), so a reflex main hits nobody."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai", "Dee"],
              actions=[{"action": "adjust", "player": "Cai", "counter": "alcohol", "delta": 18}])
    t.match.apply({"action": "buy", "player": "Ana", "to": "Ben"})
    t.match.apply({"action": "drink_event", "player": "Ana", "kind": "contest"})
    t.match.apply({"action": "drink", "player": "Ana", "extra": True, "from": "deck", "drink": "ale"})
    t.match.apply({"action": "drink", "player": "Ben", "extra": True, "from": "deck", "drink": "ale"})
    t.match.apply({"action": "drink", "player": "Cai", "extra": True, "from": "deck", "alcohol": 2})
    assert t.state["pending"] == [{"name": "Cai", "reason": "passing out"}]
    assert t.view("Dee").action == "ale +1"
    fortitude = [p["counters"]["fortitude"] for p in t.state["players"]]
    t.click("Dee", UP)
    assert t.view("Dee").action == "?: fortitude −1…"
    t.click("Dee", MAIN)  # the question only: nobody is hit yet
    assert [p["counters"]["fortitude"] for p in t.state["players"]] == fortitude
    assert (t.view("Dee").prompt, t.view("Dee").value) == ("player", "Cai")


def test_a_card_played_out_of_turn_is_an_offer_on_the_idle_pod_and_one_stray_press_does_nothing():
    """«Las cartas en cualquier momento se pueden jugar en cualquier momento, incluso si interrumpen otra acción»: an
    eighth rulebook reader's «¡Cabezazo!» and «¡Eso es mío!» were played during another's turn (8–10 presses through
    the menu), and its «¡Bebe de un trago!» made a player drink from their own pile then (14). On an idle pod each is
    an offer asking its player (from the one whose turn it is) or the drink: main, main."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    assert t.view("Cai").action == "?: fortitude −1…"
    t.hold("Cai", MAIN)  # leant on: the question opens, nobody is hit
    assert t.done == []
    t.hold("Cai", SELECT)  # cancel: home
    presses = t.presses
    t.click("Cai", MAIN)
    t.click("Cai", MAIN)  # the player asked starts at Ana, whose turn it is
    assert t.done == [{"action": "adjust", "player": "Ana", "counter": "fortitude", "delta": -1}]
    assert t.presses - presses == 2
    t.click("Cai", DOWN)
    assert t.view("Cai").action == "gold from ?…"
    t.click("Cai", MAIN, 2)
    assert t.done[-1] == {"action": "transfer", "from": "Ana", "to": "Cai", "counter": "gold", "amount": 1}
    t.click("Cai", DOWN, 2)
    assert t.view("Cai").action == "I drink now…"
    t.click("Cai", MAIN)
    t.click("Cai", UP, 2)  # ale, wine, elven wine
    # what the drink named does, beside its name (a play-tester's forced «Whisky de dragón», +3, looked like
    # "dragon breath ale", +4, by its name)
    assert (t.view("Cai").prompt, t.view("Cai").value) == ("drink: alcohol +3", "elven wine")
    t.click("Cai", MAIN)
    assert t.done[-1] == {"action": "drink", "player": "Cai", "extra": True, "drink": "elven_wine"}
    # a card that makes the players buy drinks out of turn (a ninth rulebook reader's «¡Una ronda para la mesa!»: four
    # buys, 29 presses through one pod's menu): the last line, the player asked from the left
    assert str(t.rules.seat_actions(t.state, "Cai")[-1]["label"]) == "extra drink for ?"
    buy = t.rules.seat_actions(t.state, "Cai")[-1]
    assert buy["ask"] == ["to"] and buy["action"] == {"action": "buy", "player": "Cai", "to": "Ana", "extra": True}
    assert t.state["players"][2]["counters"]["alcohol"] == 3 and t.state["turn"]["player"] == "Ana"


def test_fortitude_held_up_in_ones_own_last_chance_goes_on_past_the_point_where_the_chance_is_won():
    """A sixth rulebook reader's Ben, in his last chance, played «¡Ajuste de emergencia!»: fortitude 17→19, select and
    up held. The first +1 takes him out of danger and brings his pod the offers of another's turn; the counter he is
    changing keeps the focus, so the hold goes on (it had turned to the offers: 4 presses)."""
    t = Table("red-dragon-inn", ["Ana", "Ben", "Cai"])
    t.match.apply({"action": "adjust", "player": "Ben", "counter": "fortitude", "delta": -3})
    t.match.apply({"action": "adjust", "player": "Ben", "counter": "alcohol", "delta": 17})
    assert [e["name"] for e in t.state["pending"]] == ["Ben"]
    t.click("Ben", SELECT)
    t.hold("Ben", UP)  # the press and the hold: two points
    assert t.done == [{"action": "adjust", "player": "Ben", "counter": "fortitude", "delta": 1}] * 2
    assert t.state["players"][1]["counters"]["fortitude"] == 19 and not t.state["pending"]
    assert t.view("Ben").tuning and not t.view("Ben").choosing

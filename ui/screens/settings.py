"""Settings: language, pods' brightness, motion (a changed value flashes, or not), and each seat's hardware status."""
from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from .. import i18n
from ..i18n import _
from ..settings import BRIGHTNESS_LEVELS
from ..widgets import AMBER, GAP, GREEN, MUTED, RED, TEXT, TOUCH, Btn, Chips, FitLabel, Scroller, Stepper, tag
from .base import BaseScreen

STATUS_COLOURS = {"connected": GREEN, "virtual": TEXT, "mock": TEXT, "missing": AMBER, "error": RED}


def status_words(kind: str) -> str:
    return {"connected": _("connected"), "virtual": _("virtual (on screen)"), "mock": _("mock (no hardware)"),
            "missing": _("missing"), "error": _("error")}.get(kind, kind)


class SettingsScreen(BaseScreen):
    def build(self):
        self.header(_("Settings"), left=[Btn(_("Back"), size_hint_x=None, width=dp(110), tid="settings.back",
                                             on_press=self._back)])
        rows = BoxLayout(orientation="vertical", spacing=GAP)
        lang = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
        lang.add_widget(FitLabel(_("Language"), size_hint_x=None, width=dp(200), halign="left", base_font=dp(20)))
        codes = ["system"] + list(i18n.LANGUAGES)
        labels = [_("system")] + list(i18n.LANGUAGES.values())
        current = self.app.settings.language or "system"
        lang.add_widget(Chips(codes, labels, selected=[current], tid="settings.language",
                              on_change=self._language))
        rows.add_widget(lang)
        bright = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
        bright.add_widget(FitLabel(_("Pods' brightness"), size_hint_x=None, width=dp(200), halign="left",
                                   base_font=dp(20)))
        lo, hi = BRIGHTNESS_LEVELS
        bright.add_widget(Stepper(self.app.settings.brightness, lo=lo, hi=hi, tid="settings.brightness",
                                  on_change=self._brightness, fmt=lambda v: f"{v} / {hi}"))
        rows.add_widget(bright)
        motion = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
        motion.add_widget(FitLabel(_("Motion"), size_hint_x=None, width=dp(200), halign="left", base_font=dp(20)))
        motion.add_widget(Chips(["on", "off"], [_("changes flash"), _("still")],
                                selected=["on" if self.app.settings.motion else "off"], tid="settings.motion",
                                on_change=self._motion))
        rows.add_widget(motion)
        layout = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
        layout.add_widget(FitLabel(_("Layout"), size_hint_x=None, width=dp(200), halign="left", base_font=dp(20)))
        settings = self.app.settings
        chosen = ("ends" if settings.table_ends else "facing") if settings.seat_facing else "one-side"
        layout.add_widget(Chips(["facing", "ends", "one-side"],
                                [_("facing the seats"), _("seats at the ends too"), _("one side")],
                                selected=[chosen],
                                tid="settings.layout", on_change=self._layout))
        rows.add_widget(layout)
        rows.add_widget(FitLabel(_("Pods"), size_hint_y=None, height=dp(30), halign="left", color=MUTED,
                                 base_font=dp(18)))
        self.status = BoxLayout(orientation="vertical", spacing=dp(2), size_hint_y=None)
        rows.add_widget(self.status)
        self.where = tag(FitLabel("", size_hint_y=None, height=dp(26), halign="left", color=MUTED,
                                  base_font=dp(14), min_font=dp(8)), "settings.where")
        rows.add_widget(self.where)
        self.box.add_widget(Scroller(rows))

    def _back(self):
        self.app.go("table" if self.app.snapshot.table is not None and not self.app.snapshot.table.over
                    else "home")

    def _language(self, code):
        self.app.set_language(None if code == "system" else code)

    def _motion(self, choice):
        self.app.settings.motion = choice == "on"
        self.app.save_settings()

    def _layout(self, choice):
        self.app.settings.seat_facing = choice in ("facing", "ends")
        self.app.settings.table_ends = choice == "ends"
        self.app.save_settings()

    def _brightness(self, level):
        self.app.settings.brightness = level
        self.app.save_settings()
        self.app.apply_brightness()

    def update(self, snap, **kw):
        self.status.clear_widgets()
        seats = self.app.hardware_status()
        if not seats:
            self.status.add_widget(FitLabel(_("No pods are configured."), size_hint_y=None, height=dp(34),
                                            color=MUTED, halign="left", base_font=dp(18)))
        for seat, who, kind, detail in seats:
            text = _("Pod {n}").format(n=seat) + (f" ({who})" if who else "") + ": " + status_words(kind)
            if detail:
                text += f" — {detail}"
            label = FitLabel(text, size_hint_y=None, height=dp(34), halign="left", base_font=dp(18),
                             min_font=dp(9), color=STATUS_COLOURS.get(kind, TEXT))
            tag(label, f"settings.pod.{seat}")
            self.status.add_widget(label)
        self.status.height = max(1, len(self.status.children)) * dp(36)
        self.where.text = _("Games are kept in {path}").format(path=str(self.app.keeper.journal.path)
                                                                if self.app.keeper.journal else "")

"""Settings: language, pods' brightness, motion (a changed value flashes, or not), and each seat's hardware status."""
from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from .. import i18n
from ..i18n import _
from ..settings import BRIGHTNESS_LEVELS
from ..widgets import AMBER, GAP, GREEN, MUTED, RED, TEXT, TOUCH, Btn, Chips, FitLabel, Scroller, Stepper, tag
from .base import BaseScreen

STATUS_COLOURS = {"connected": GREEN, "virtual": TEXT, "mock": TEXT, "missing": AMBER, "error": RED, "stuck": AMBER}


def status_words(kind: str) -> str:
    return {"connected": _("connected"), "virtual": _("virtual (on screen)"), "mock": _("mock (no hardware)"),
            "missing": _("missing"), "error": _("error"), "stuck": _("button stuck")}.get(kind, kind)


#: How often the settings screen looks for a USB stick while it is shown, seconds.
STICK_POLL_S = 2.0


def stick_job(keeper, what: str, stick, unfinished: bool) -> tuple[str, str]:
    """On the journal worker: export the plays, back up everything, or restore the stick's newest
    backup (its unfinished games only when no game is being played: ``unfinished``). A message kind
    and the sentence to show, in the app's language; a refusal or a failed write says why and changes
    nothing."""
    from ...engine import backup
    from ...engine.errors import TablekeeperError
    from .. import backups
    from ..stick import stick_folder

    journal = keeper.journal
    try:
        if what == "export":
            return "info", i18n.engine_text(backups.export_to_stick(journal, stick, keeper.state_dir).sentence())
        if what == "backup":
            return "info", i18n.engine_text(backup.back_up(journal, stick_folder(stick)).made_sentence())
        found = backup.backups_in(stick_folder(stick))
        if not found:
            return "warning", _("No backup on the stick")
        report = backup.restore(journal, found[0], unfinished=unfinished)
        if keeper.session is not None:
            keeper.session.refresh()  # the game being played may have been brought up to date
        return "info", i18n.engine_text(report.sentence())
    except backup.RestoreRefused as e:
        return "refused", i18n.engine_text(e)
    except OSError as e:  # ours (BackupError, the journal's) say their own sentence; the system's, its words
        if isinstance(e, TablekeeperError):
            return "error", i18n.engine_text(e)
        return "error", _("Cannot write to the stick: {error}").format(error=e.strerror or e)


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
        # The USB stick: play records and a backup of everything go onto it; a backup on it comes back
        rows.add_widget(FitLabel(_("USB stick"), size_hint_y=None, height=dp(30), halign="left", color=MUTED,
                                 base_font=dp(18)))
        self.stick_label = tag(FitLabel("", size_hint_y=None, height=dp(30), halign="left", base_font=dp(17),
                                        min_font=dp(9)), "settings.stick")
        rows.add_widget(self.stick_label)
        stick = BoxLayout(size_hint_y=None, height=TOUCH, spacing=GAP)
        self.stick_buttons = [
            Btn(_("Export plays"), tid="settings.export", base_font=dp(17), on_press=lambda: self._on_stick("export")),
            Btn(_("Back up everything"), tid="settings.backup", base_font=dp(17),
                on_press=lambda: self._on_stick("backup")),
            Btn(_("Restore the latest backup"), tid="settings.restore", base_font=dp(17), min_font=dp(9),
                on_press=lambda: self._on_stick("restore")),
        ]
        for b in self.stick_buttons:
            b.wrap = True
            stick.add_widget(b)
        rows.add_widget(stick)
        self._stick = None
        self._stick_settings = None
        self._poll_event = None
        rows.add_widget(FitLabel(_("Pods"), size_hint_y=None, height=dp(30), halign="left", color=MUTED,
                                 base_font=dp(18)))
        self.status = BoxLayout(orientation="vertical", spacing=dp(2), size_hint_y=None)
        rows.add_widget(self.status)
        self.where = tag(FitLabel("", size_hint_y=None, height=dp(26), halign="left", color=MUTED,
                                  base_font=dp(14), min_font=dp(8)), "settings.where")
        rows.add_widget(self.where)
        self.box.add_widget(Scroller(rows))

    # -- the USB stick ----------------------------------------------------------------------
    def on_enter(self, *a):
        from kivy.clock import Clock

        from .. import stick

        if self._stick_settings is None:
            self._stick_settings = stick.settings(getattr(self.app, "config_path", None))
        self._poll()
        self._poll_event = Clock.schedule_interval(lambda dt: self._poll(), STICK_POLL_S)

    def on_leave(self, *a):
        if self._poll_event is not None:
            self._poll_event.cancel()
            self._poll_event = None

    def _poll(self):
        """A stick plugged in or pulled out shows within STICK_POLL_S (reading the mount table: ~1 ms)."""
        from .. import stick

        self._stick = stick.find_stick(self._stick_settings)
        self.stick_label.text = (_("On the stick: {path}").format(path=stick.stick_folder(self._stick))
                                 if self._stick is not None else _("No USB stick: plug one in to export or back up"))
        for b in self.stick_buttons:
            b.disabled = self._stick is None

    def _on_stick(self, what):
        from kivy.clock import Clock

        where = self._stick
        if where is None:
            return
        unfinished = self.app.snapshot.table is None or self.app.snapshot.table.over
        for b in self.stick_buttons:
            b.disabled = True  # one at a time; the next poll gives them back

        def job(keeper):
            return stick_job(keeper, what, where, unfinished)

        def done(result):
            kind, text = result
            Clock.schedule_once(lambda dt: self.app.toast.show(text, kind), 0)

        self.app.keeper.call(job, done)

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
                text += f" — {i18n.engine_text(detail)}"  # a stuck button's detail is a message
            label = FitLabel(text, size_hint_y=None, height=dp(34), halign="left", base_font=dp(18),
                             min_font=dp(9), color=STATUS_COLOURS.get(kind, TEXT))
            tag(label, f"settings.pod.{seat}")
            self.status.add_widget(label)
        self.status.height = max(1, len(self.status.children)) * dp(36)
        self.where.text = _("Games are kept in {path}").format(path=str(self.app.keeper.journal.path)
                                                                if self.app.keeper.journal else "")

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts import events as account_events
        from accounts import views as account_views
        from config.events import subscribe
        from games import events as game_events

        from . import checks, settings_pages, subscribers, table_talk  # noqa: F401  (checks registers the deployment checks)

        # The outbox hears the game core's changes inside their transactions (games never imports it).
        subscribe(game_events.InvitationsSent, subscribers.invitations_sent)
        subscribe(game_events.InvitationsAnswered, subscribers.invitations_answered)
        subscribe(game_events.GameStarted, subscribers.game_started)
        subscribe(game_events.TurnBegan, subscribers.turn_began)
        subscribe(game_events.GameFinished, subscribers.game_finished)
        subscribe(game_events.RemindersDue, subscribers.reminders_due)
        # Table talk's "new message" notice (the room that keeps the messages is above this one).
        subscribe(game_events.TableMessagePosted, table_talk.message_posted)
        subscribe(account_events.PasswordChanged, subscribers.password_changed)
        # The settings page belongs to accounts; its notification, device and webhook sections live here.
        account_views.SETTINGS_CONTEXT.append(settings_pages.settings_context)
        account_views.SAVED_MESSAGES.update(settings_pages.SAVED_MESSAGES)

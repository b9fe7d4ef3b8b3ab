"""Pydantic models behind the demo tools' input and output schemas.

They are shaped to make the published JSON Schemas exercise what an inspector's form builder must
handle: nested objects, arrays of objects, string and numeric enums, a discriminated union
(``oneOf`` + ``const``), ``$defs``/``$ref`` (``Person`` is referenced twice), nullable fields,
``format`` keywords and defaults.
"""

from datetime import date, datetime
from enum import IntEnum, StrEnum
from typing import Annotated, Literal
from uuid import UUID

from pydantic import AnyUrl, BaseModel, Field

Email = Annotated[
    str,
    Field(
        pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$",
        json_schema_extra={"format": "email"},
        examples=["ada@example.com"],
    ),
]


class Priority(StrEnum):
    """How urgent the meeting is."""

    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"


class ReminderMinutes(IntEnum):
    """Minutes before the start to send a reminder."""

    NONE = 0
    FIVE = 5
    FIFTEEN = 15
    HOUR = 60


class Person(BaseModel):
    """Someone taking part in the meeting."""

    name: str = Field(min_length=1, max_length=80, description="Full name.")
    email: Email = Field(description="Contact e-mail address.")
    optional: bool = Field(default=False, description="Attendance is optional for this person.")


class InPerson(BaseModel):
    """A meeting in a physical room."""

    kind: Literal["in_person"] = Field(description="Discriminator: meet in a room.")
    room: str = Field(min_length=1, description="Room name or number.")
    floor: int | None = Field(default=None, ge=-5, le=200, description="Floor, if the building has several.")


class Online(BaseModel):
    """A video call."""

    kind: Literal["online"] = Field(description="Discriminator: meet online.")
    url: AnyUrl = Field(description="Join link of the video call.")
    dial_in: str | None = Field(default=None, description="Optional phone dial-in number.")


class Agenda(BaseModel):
    """One agenda item."""

    topic: str = Field(min_length=1, description="What is discussed.")
    minutes: int = Field(default=10, ge=1, le=240, description="Time box for the item, in minutes.")


Location = Annotated[InPerson | Online, Field(discriminator="kind")]


class Booking(BaseModel):
    """The confirmation returned after booking."""

    booking_id: UUID = Field(description="Identifier of the new booking.")
    title: str
    starts_at: datetime
    ends_at: datetime
    invited: int = Field(description="Number of invited people, organizer included.")
    where: str = Field(description="Human-readable location.")


class Conditions(StrEnum):
    """Sky conditions."""

    SUNNY = "sunny"
    CLOUDY = "cloudy"
    RAIN = "rain"
    SNOW = "snow"
    STORM = "storm"


class DailyForecast(BaseModel):
    """Forecast for one day."""

    day: date
    high: float = Field(description="Highest temperature, in the report's unit.")
    low: float = Field(description="Lowest temperature, in the report's unit.")
    conditions: Conditions


class WeatherReport(BaseModel):
    """Current weather and a short forecast (simulated, deterministic per city)."""

    city: str
    unit: Literal["celsius", "fahrenheit"]
    temperature: float = Field(description="Current temperature.")
    humidity: int = Field(ge=0, le=100, description="Relative humidity, percent.")
    conditions: Conditions
    observed_at: datetime
    forecast: list[DailyForecast] = Field(description="The next days, starting tomorrow.")

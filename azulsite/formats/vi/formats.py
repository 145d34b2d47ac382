"""Vietnamese: the date before the time, day/month/year, no capital mid-sentence
(Django's is "08:33 Ngày 04 tháng 12 năm 2026"; its month names, "Tháng 12",
are capitalised, so no format here prints them: "tháng 12 năm 2026")."""

DATE_FORMAT = r"\n\g\à\y j \t\h\á\n\g n \n\ă\m Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "d/m/Y H:i"
YEAR_MONTH_FORMAT = r"\t\h\á\n\g n \n\ă\m Y"
MONTH_DAY_FORMAT = r"\n\g\à\y j \t\h\á\n\g n"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"

package intl

type dateData struct{}

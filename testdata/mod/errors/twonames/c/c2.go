package d
